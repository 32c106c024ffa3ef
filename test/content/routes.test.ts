import { contentRoutesContract } from '@siterest/core/testing';
import { serveWithExpress } from '../../packages/adapter-express/test/serve.js';
import { serveWithFastify } from '../../packages/adapter-fastify/test/serve.js';
import { storeVariants } from '../support/stores.js';

// Every store under both adapters: rest/v1 and seo/v1 must answer alike.
for (const variant of storeVariants()) {
  for (const [adapter, serve] of [
    ['Express', serveWithExpress],
    ['Fastify', serveWithFastify],
  ] as const) {
    contentRoutesContract(`${variant.label}, ${adapter}`, { createStore: () => variant.create(), destroyStore: (store) => variant.destroy(store), serve: (site) => serve(site) });
  }
}
