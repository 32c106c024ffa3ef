import { fragmentCacheContractSuite } from '@siterest/core/testing';
import { memoryStore } from '@siterest/store-memory';

fragmentCacheContractSuite('memory', { create: async () => memoryStore() });
