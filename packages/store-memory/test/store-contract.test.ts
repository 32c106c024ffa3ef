import { storeContractSuite } from '@siterest/core/testing';
import { memoryStore } from '@siterest/store-memory';

storeContractSuite('memory', { create: async () => memoryStore() });
