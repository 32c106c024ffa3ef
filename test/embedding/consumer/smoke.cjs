// Run by pack:check: every entry loads from CommonJS (`@siterest/core/testing` is ESM only, as Vitest is).
const assert = require('node:assert/strict');
const core = require('@siterest/core');
const demo = require('@siterest/core/demo');
const { memoryStore } = require('@siterest/store-memory');
const { postgresStore } = require('@siterest/store-postgres');
const { siterestExpress } = require('@siterest/adapter-express');
const { siterestFastify } = require('@siterest/adapter-fastify');

(async () => {
  assert.throws(() => require('@siterest/core/testing'), { code: 'ERR_PACKAGE_PATH_NOT_EXPORTED' });
  const site = core.createSite({ store: memoryStore() });
  const answer = await site.handle({ method: 'GET', path: '/cal/events/v1/nope', headers: {} });
  assert.equal(JSON.parse(answer.body).code, 'rest_no_route');
  assert.equal(typeof demo.seedDemoSite, 'function');
  assert.equal(typeof siterestExpress(site), 'function');
  assert.equal(typeof siterestFastify, 'function');
  // The store loads the optional pg driver only when it makes its own pool; from CommonJS too.
  const ownPool = postgresStore({ connectionString: 'postgres://127.0.0.1:1/none' });
  assert.equal(ownPool.schema, 'siterest');
  await ownPool.close();
  console.log('CommonJS entries load');
})().catch((error) => {
  console.error(error);
  process.exit(1);
});
