export { memoryStore, MemoryStore, type MemoryStoreOptions } from './store.js';
