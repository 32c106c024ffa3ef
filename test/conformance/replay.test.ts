import { storeVariants } from '../support/stores.js';
import { replayCaptures } from './replay.js';

for (const variant of storeVariants()) {
  replayCaptures({ label: variant.label, createStore: (firstIds) => variant.create(firstIds), destroyStore: (store) => variant.destroy(store) });
}
