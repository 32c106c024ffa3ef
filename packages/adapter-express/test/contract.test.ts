import { adapterContractSuite } from '@siterest/core/testing';
import { memoryStore } from '@siterest/store-memory';
import { serveWithExpress, type AppParser } from './serve.js';

// The contract holds whatever body parsers the app runs before siterest.
const variants: Array<{ label: string; parsers: AppParser[] }> = [
  { label: 'express', parsers: [] },
  { label: 'express after express.json()', parsers: ['json'] },
  { label: 'express after express.urlencoded()', parsers: ['urlencoded'] },
  { label: 'express after express.json(), urlencoded() and text()', parsers: ['json', 'urlencoded', 'text'] },
];

for (const { label, parsers } of variants) {
  adapterContractSuite(label, {
    createStore: () => memoryStore(),
    serve: (site, options) => serveWithExpress(site, { ...options, parsers }),
    appParsesJson: parsers.includes('json'),
  });
}
