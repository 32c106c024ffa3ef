/**
 * Benchmark server (a child process of run.ts): one site on the chosen store with N events, served six
 * ways — siterest on Express and on Fastify, each with and without its list-answer cache, and each
 * framework's bare route answering the same bytes from a constant. Prints the ports as one JSON line.
 */
import type { AddressInfo } from 'node:net';
import express from 'express';
import Fastify from 'fastify';
import { createSite, manualClock, silentLogger, type SiteStore } from '@siterest/core';
import { siterestExpress } from '@siterest/adapter-express';
import { siterestFastify } from '@siterest/adapter-fastify';
import { memoryStore } from '@siterest/store-memory';
import { seedBenchEvents } from './lib/seed-events.js';

const PATH = '/api/cal/events/v1/events';
const NOW = '2026-11-21T16:41:37Z';

async function openStore(kind: string): Promise<SiteStore> {
  if (kind === 'memory') return memoryStore();
  const { openBenchPostgres } = await import('./lib/postgres-store.js');
  return openBenchPostgres();
}

const [kind = 'memory', countArg = '10000'] = process.argv.slice(2);
const store = await openStore(kind);
await seedBenchEvents(store, Number(countArg), Date.parse(NOW));
const site = createSite({ store, settings: { name: 'Bench', url: 'http://127.0.0.1:8080' }, clock: manualClock(NOW), logger: silentLogger });
// The same site without the list-answer cache: every request does the whole work.
const uncached = createSite({ store, cache: false, settings: { name: 'Bench', url: 'http://127.0.0.1:8080' }, clock: manualClock(NOW), logger: silentLogger });
const sample = await site.handle({ method: 'GET', path: '/cal/events/v1/events', headers: {}, basePath: '/api' });
const headers = Object.fromEntries(sample.headers);

const expressSite = express();
expressSite.use('/api', siterestExpress(site));
const expressUncached = express();
expressUncached.use('/api', siterestExpress(uncached));
const expressBare = express();
expressBare.get(PATH, (_req, res) => {
  res.set(headers);
  res.end(sample.body);
});
const fastifySite = Fastify();
await fastifySite.register(siterestFastify, { site, prefix: '/api' });
const fastifyUncached = Fastify();
await fastifyUncached.register(siterestFastify, { site: uncached, prefix: '/api' });
const fastifyBare = Fastify();
fastifyBare.get(PATH, (_request, reply) => reply.headers(headers).send(sample.body));

const ports: Record<string, number> = {};
for (const [name, app] of [['express-siterest', expressSite], ['express-uncached', expressUncached], ['express-bare', expressBare]] as const) {
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  ports[name] = (server.address() as AddressInfo).port;
}
for (const [name, app] of [['fastify-siterest', fastifySite], ['fastify-uncached', fastifyUncached], ['fastify-bare', fastifyBare]] as const) {
  await app.listen({ port: 0, host: '127.0.0.1' });
  ports[name] = (app.server.address() as AddressInfo).port;
}
console.log(JSON.stringify({ ready: true, ports, path: PATH, bytes: Buffer.byteLength(sample.body), status: sample.status }));
