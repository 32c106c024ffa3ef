/**
 * Memory benchmark server (a child process of memory.ts): one site on the memory store with 10,000 events and
 * 10,000 redirects, served by Fastify with the redirect middleware and the REST routes (answer cache and JSON
 * fragments on, as by default). Requests with `x-bench-role` are signed in with that role (the load updates events
 * with it). Prints the ports and the event ids as one JSON line.
 */
import type { AddressInfo } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import v8 from 'node:v8';
import vm from 'node:vm';
import Fastify from 'fastify';
import { createSite, manualClock, silentLogger } from '@siterest/core';
import { siterestFastify, siterestRedirectsFastify } from '@siterest/adapter-fastify';
import { memoryStore } from '@siterest/store-memory';
import { seedBenchEvents } from './lib/seed-events.js';
import { seedBenchRedirects } from './lib/seed-redirects.js';

const NOW = '2026-11-21T16:41:37Z';
const store = memoryStore();
await seedBenchEvents(store, 10_000, Date.parse(NOW));
const clock = manualClock(NOW);
const site = createSite({
  store,
  settings: { name: 'Bench', url: 'http://127.0.0.1:8080', timezone_string: 'America/New_York' },
  clock,
  logger: silentLogger,
  authenticate: (request) => {
    const role = request.headers['x-bench-role'];
    return typeof role === 'string' ? { id: 1, login: 'bench', roles: [role], credentials: 'header' } : null;
  },
});
// The site clock runs on, so that answers keyed on the second come and go as in production.
setInterval(() => clock.advance(1000), 1000).unref();
await seedBenchRedirects(site);
// Logs are data the store keeps by design (until they expire): off, so that what the run shows is the caches.
await site.redirects.saveSettings({ ...(await site.redirects.settings()), expire_redirect: -1, expire_404: -1 });
const app = Fastify();
await app.register(siterestRedirectsFastify, { site });
await app.register(siterestFastify, { site, prefix: '/api' });
// What the process retains, apart from the pages the allocator and V8 keep: the heap in use right after a full
// collection, asked by the benchmark once a minute (a handful of collections in ten minutes; the load never asks).
v8.setFlagsFromString('--expose-gc');
const collectGarbage = vm.runInNewContext('gc') as () => void;
app.get('/bench/heap', async (_request, reply) => {
  // Buffers' memory is given back by a sweeper after the collection: a second collection after a pause finds it gone.
  collectGarbage();
  await delay(100);
  collectGarbage();
  const { heapUsed, external, arrayBuffers } = process.memoryUsage();
  return reply.send({ heapUsed, external, arrayBuffers });
});
app.get('/*', (_request, reply) => reply.type('text/html').send('<!DOCTYPE html><title>Page</title><p>A page of the app.</p>'));
await app.listen({ port: 0, host: '127.0.0.1' });
const ids = (await store.events.list({ statuses: 'any', orderBy: 'start', offset: 0, limit: 10_000 })).items.map((e) => e.id);
process.once('SIGTERM', () => process.exit(0));
console.log(JSON.stringify({ ready: true, ports: { app: (app.server.address() as AddressInfo).port }, path: '/api/', ids }));
