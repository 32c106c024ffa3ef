// Run by pack:check: every entry loads from CommonJS, and `@siterest/core/testing` works with the main entry's
// classes (a Site it makes is an instance of the Site the main entry exports).
const assert = require('node:assert/strict');
const core = require('@siterest/core');
const testing = require('@siterest/core/testing');
const demo = require('@siterest/core/demo');
const { memoryStore } = require('@siterest/store-memory');
const { postgresStore, openPGlite } = require('@siterest/store-postgres');
const { siterestExpress } = require('@siterest/adapter-express');
const { siterestFastify } = require('@siterest/adapter-fastify');

(async () => {
  const { site } = await testing.contractSite(memoryStore());
  assert.ok(site instanceof core.Site, 'the testing entry must use the main entry\'s Site');
  const answer = await site.handle({ method: 'GET', path: '/cal/events/v1/nope', headers: {} });
  assert.equal(JSON.parse(answer.body).code, 'rest_no_route');
  assert.equal(typeof demo.seedDemoSite, 'function');
  assert.equal(typeof siterestExpress(site), 'function');
  assert.equal(typeof siterestFastify, 'function');
  const store = postgresStore({ pglite: await openPGlite(), migrate: true });
  const pgSite = core.createSite({ store });
  await pgSite.ready();
  assert.equal((await pgSite.handle({ method: 'GET', path: '/', headers: {} })).status, 200);
  await pgSite.close();
  console.log('CommonJS entries load and share their classes');
})().catch((error) => {
  console.error(error);
  process.exit(1);
});
