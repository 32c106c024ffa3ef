/**
 * Benchmark server (a child process of run.ts): one site on the chosen store with N events, served eight
 * ways — siterest on Express and on Fastify, each with and without its list-answer cache, and each
 * framework's bare route answering the same bytes (per request path) from a constant, kept as bytes and as text —
 * and three more Fastify routes for the breakdown of an uncached list's cost (see fastifyAfter).
 * Prints the ports and the request paths as one JSON line. `only=<name>` serves just one of them (CPU profiles).
 */
import type { AddressInfo } from 'node:net';
import express from 'express';
import Fastify, { type FastifyRequest } from 'fastify';
import { createSite, manualClock, silentLogger, toSiteRequest, type SiteStore } from '@siterest/core';
import { siterestExpress } from '@siterest/adapter-express';
import { siterestFastify } from '@siterest/adapter-fastify';
import { memoryStore } from '@siterest/store-memory';
import { seedBenchEvents } from './lib/seed-events.js';

const BASE = '/api';
const NOW = '2026-11-21T16:41:37Z';

/**
 * What clients of a calendar ask, in turn: the default list and its next pages, other page sizes, a category, a
 * tag, featured events, a search, a month, and the venues and organizers lists.
 */
const PATHS = [
  '/cal/events/v1/events',
  '/cal/events/v1/events?page=2',
  '/cal/events/v1/events?page=3',
  '/cal/events/v1/events?page=7',
  '/cal/events/v1/events?per_page=25&page=2',
  '/cal/events/v1/events?categories=jazz',
  '/cal/events/v1/events?tags=free&page=2',
  '/cal/events/v1/events?featured=true',
  '/cal/events/v1/events?search=concert',
  '/cal/events/v1/events?start_date=2027-03-01&end_date=2027-03-31',
  '/cal/events/v1/venues',
  '/cal/events/v1/organizers?page=2',
];

async function openStore(kind: string): Promise<SiteStore> {
  if (kind === 'memory') return memoryStore();
  const { openBenchPostgres } = await import('./lib/postgres-store.js');
  return openBenchPostgres();
}

const [kind = 'memory', countArg = '10000', only] = process.argv.slice(2);
const store = await openStore(kind);
await seedBenchEvents(store, Number(countArg), Date.parse(NOW));
const settings = { name: 'Bench', url: 'http://127.0.0.1:8080', timezone_string: 'America/New_York' };
const site = createSite({ store, settings, clock: manualClock(NOW), logger: silentLogger });
// The same site without the list-answer cache: every request does the whole work.
const uncached = createSite({ store, cache: false, settings, clock: manualClock(NOW), logger: silentLogger });

/**
 * The bytes and headers each path answers, for the bare routes: encoded once, so that the bare routes do the
 * least a server can (siterest's cached answers are written from kept bytes too).
 */
const answers = new Map<string, { status: number; headers: Record<string, string>; body: Buffer; text: string }>();
for (const path of PATHS) {
  const q = path.indexOf('?');
  const sample = await site.handle({ method: 'GET', path: q === -1 ? path : path.slice(0, q), query: q === -1 ? '' : path.slice(q + 1), headers: {}, basePath: BASE });
  if (sample.status !== 200) throw new Error(`${path} answered ${sample.status}: ${sample.body.slice(0, 200)}`);
  const body = Buffer.from(sample.body);
  // The text decoded from the bytes: a flat one-byte string, as JSON.stringify gives for ASCII JSON (a handler's
  // usual string), whatever form siterest holds its own text in.
  answers.set(BASE + path, { status: sample.status, headers: Object.fromEntries(sample.headers), body, text: body.toString('utf8') });
}

// Warmed up before measuring: each path answered a few times by both sites, so the first measured seconds do not
// include compiling the code and, for the cached site, the first misses.
for (let round = 0; round < 20; round++) {
  for (const target of [site, uncached]) {
    for (const path of PATHS) {
      const q = path.indexOf('?');
      await target.handle({ method: 'GET', path: q === -1 ? path : path.slice(0, q), query: q === -1 ? '' : path.slice(q + 1), headers: {}, basePath: BASE });
    }
  }
}

/**
 * The CPU time one uncached list takes in this process with nothing else running: the 12 paths asked back to back
 * in a loop, µs per list. The "spin" route spends this long before answering, so that the
 * benchmark can tell the pipeline's own cost from what the same work costs between a server's network events.
 */
async function loopMicros(): Promise<number> {
  const requests = PATHS.map((path) => {
    const q = path.indexOf('?');
    return { method: 'GET', path: q === -1 ? path : path.slice(0, q), query: q === -1 ? '' : path.slice(q + 1), headers: { host: '127.0.0.1', accept: '*/*' }, basePath: BASE };
  });
  const slices = async () => {
    const each: number[] = [];
    for (let slice = 0; slice < 7; slice++) {
      const before = process.cpuUsage();
      for (let round = 0; round < 50; round++) for (const request of requests) await uncached.handle(request);
      const used = process.cpuUsage(before);
      each.push((used.user + used.system) / (50 * requests.length));
    }
    return each.sort((a, b) => a - b)[3]!;
  };
  // Warmed up first: the lists above ran 20 times, and the first seconds after seeding are slower still (the
  // optimizing compiler and the collector settle): the lowest of three medians.
  for (let round = 0; round < 600; round++) for (const request of requests) await uncached.handle(request);
  return Math.min(await slices(), await slices(), await slices());
}
const inProcessMicros = await loopMicros();

const expressSite = express();
expressSite.use(BASE, siterestExpress(site));
const expressUncached = express();
expressUncached.use(BASE, siterestExpress(uncached));
// The bare routes twice: sending the kept bytes, and sending the text as a handler usually does (Node then
// measures and encodes it on every request).
const expressBare = (as: 'body' | 'text') => {
  const app = express();
  app.use((req, res) => {
    const answer = answers.get(req.originalUrl);
    if (!answer) return void res.status(404).end();
    res.status(answer.status).set(answer.headers);
    res.end(answer[as]);
  });
  return app;
};
const fastifySite = Fastify();
await fastifySite.register(siterestFastify, { site, prefix: BASE });
const fastifyUncached = Fastify();
await fastifyUncached.register(siterestFastify, { site: uncached, prefix: BASE });
const fastifyBare = (as: 'body' | 'text') => {
  const app = Fastify();
  app.get('/*', (request, reply) => {
    const answer = answers.get(request.url);
    if (!answer) return reply.code(404).send();
    return reply.code(answer.status).headers(answer.headers).send(answer[as]);
  });
  return app;
};

// Fastify twice more, for the breakdown of an uncached list's cost: the bare route after spinning for the
// in-process cost of a list, and the bare route after running the uncached pipeline for the request (its answer
// is left unsent: the bare bytes go out instead).
const fastifyAfter = (before: (request: FastifyRequest) => Promise<unknown> | void) => {
  const app = Fastify();
  app.get('/*', async (request, reply) => {
    await before(request);
    const answer = answers.get(request.url);
    if (!answer) return reply.code(404).send();
    return reply.code(answer.status).headers(answer.headers).send(answer.body);
  });
  return app;
};
const spinNanos = BigInt(Math.round(inProcessMicros * 1000));
const fastifySpin = fastifyAfter(() => {
  const start = process.hrtime.bigint();
  while (process.hrtime.bigint() - start < spinNanos);
});
const runUncached = async (request: FastifyRequest) => {
  const url = request.url.slice(BASE.length);
  const { request: siteRequest, bodyError } = await toSiteRequest({ raw: request.raw, method: request.method, url, basePath: BASE, frameworkRequest: request }, uncached);
  await uncached.handle(siteRequest, bodyError);
};
const fastifyPipeline = fastifyAfter(runUncached);
// The pipeline run twice for each request: the second run meets the code and data the first brought into the
// caches, so the difference between the two routes is what the work costs when warm, and the rest of the first
// run's cost is what coming back to it after the network and the framework costs.
const fastifyPipelineTwice = fastifyAfter(async (request) => {
  await runUncached(request);
  await runUncached(request);
});

const ports: Record<string, number> = {};
for (const [name, app] of [['express-siterest', expressSite], ['express-uncached', expressUncached], ['express-bare', expressBare('body')], ['express-bare-text', expressBare('text')]] as const) {
  if (only && only !== name) continue;
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  ports[name] = (server.address() as AddressInfo).port;
}
for (const [name, app] of [['fastify-siterest', fastifySite], ['fastify-uncached', fastifyUncached], ['fastify-bare', fastifyBare('body')], ['fastify-bare-text', fastifyBare('text')], ['fastify-spin', fastifySpin], ['fastify-pipeline', fastifyPipeline], ['fastify-pipeline-twice', fastifyPipelineTwice]] as const) {
  if (only && only !== name) continue;
  await app.listen({ port: 0, host: '127.0.0.1' });
  ports[name] = (app.server.address() as AddressInfo).port;
}
// BENCH_CPU_PROFILE=<file>: the V8 CPU profile (what `node --cpu-prof` records) of the serving only, seeding
// and start-up left out; written when the server is stopped.
const profileFile = process.env.BENCH_CPU_PROFILE;
if (profileFile) {
  const { startProfile } = await import('./lib/cpu-profile.js');
  const stop = await startProfile();
  process.once('SIGTERM', () => void stop(profileFile).then(() => process.exit(0)));
} else {
  process.once('SIGTERM', () => process.exit(0));
}
const paths = PATHS.map((path) => BASE + path);
const bytes = Math.round([...answers.values()].reduce((sum, a) => sum + a.body.length, 0) / answers.size);
console.log(JSON.stringify({ ready: true, ports, path: paths[0], paths, bytes, inProcessMicros }));
