import { memoryStore } from '@siterest/store-memory';
import { replayCaptures } from './replay.js';

replayCaptures({ label: 'memory store', createStore: (firstIds) => memoryStore({ firstIds }) });
