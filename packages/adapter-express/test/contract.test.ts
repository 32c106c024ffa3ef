import { adapterContractSuite } from '@siterest/core/testing';
import { memoryStore } from '@siterest/store-memory';
import { serveWithExpress } from './serve.js';

adapterContractSuite('express', { createStore: () => memoryStore(), serve: (site) => serveWithExpress(site) });
