import { adapterContractSuite } from '@siterest/core/testing';
import { memoryStore } from '@siterest/store-memory';
import { serveWithFastify } from './serve.js';

adapterContractSuite('fastify', { createStore: () => memoryStore(), serve: (site, options) => serveWithFastify(site, options) });
