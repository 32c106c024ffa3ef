import { answerCacheContractSuite } from '@siterest/core/testing';
import { memoryStore } from '@siterest/store-memory';

// The memory store's version advances cannot fail, and nothing writes to it from outside.
answerCacheContractSuite('memory', { create: async () => memoryStore() });
