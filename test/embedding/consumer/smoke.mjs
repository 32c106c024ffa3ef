// Run by pack:check: the ESM entries load, and \`@siterest/core/testing\` works with the main entry's classes (a
// Site it makes is an instance of the Site the main entry exports, an ApiError it sees is the main entry's).
import assert from 'node:assert/strict';
import { ApiError, Site } from '@siterest/core';
import { contractSite } from '@siterest/core/testing';
import { seedDemoSite } from '@siterest/core/demo';
import { memoryStore } from '@siterest/store-memory';

const { site } = await contractSite(memoryStore());
assert.ok(site instanceof Site, 'the testing entry must use the main entry\'s Site');
assert.equal(typeof seedDemoSite, 'function');
assert.ok(new ApiError('x', 'y', 400) instanceof Error);
await seedDemoSite(site);
const answer = await site.handle({ method: 'GET', path: '/cal/events/v1/events', headers: {} });
assert.ok(JSON.parse(answer.body).total > 0);
console.log('ESM entries load and share their classes');
