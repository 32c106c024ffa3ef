import { storeVariants } from '../support/stores.js';
import { replayCaptures } from './replay.js';

for (const variant of storeVariants()) {
  replayCaptures({ label: variant.label, createStore: (firstIds) => variant.create(firstIds), destroyStore: (store) => variant.destroy(store) });
}
// The live redirects through the other adapter as well (memory store).
const memory = storeVariants()[0]!;
replayCaptures({ label: memory.label, adapter: 'fastify', createStore: (firstIds) => memory.create(firstIds), destroyStore: (store) => memory.destroy(store) });
