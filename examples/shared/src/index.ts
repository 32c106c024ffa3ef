export { readConfig, type ExampleConfig } from './config.js';
export { announceAddress, banner, createExampleSite, type ExampleSite } from './site.js';
export { runUntilSignalled, startServer } from './lifecycle.js';
export { startExample, type StartedExample } from './spawn.js';
export { readEmbedPage, readUpload } from './files.js';
