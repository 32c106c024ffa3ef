/**
 * Redirection benchmark server (a child process of redirection.ts): one site with 10,000 redirects (1,000 of
 * them regex) and the same small app four ways — Express and Fastify, each with the redirect middleware and
 * without it. The app answers every path with a short page. Prints the ports as one JSON line.
 */
import type { AddressInfo } from 'node:net';
import express, { type Express } from 'express';
import Fastify, { type FastifyInstance } from 'fastify';
import { createSite, manualClock, silentLogger } from '@siterest/core';
import { siterestRedirects } from '@siterest/adapter-express';
import { siterestRedirectsFastify } from '@siterest/adapter-fastify';
import { memoryStore } from '@siterest/store-memory';
import { seedBenchRedirects } from './lib/seed-redirects.js';

const site = createSite({ store: memoryStore(), settings: { name: 'Bench', url: 'http://127.0.0.1:8080' }, clock: manualClock('2026-11-21T16:41:37Z'), logger: silentLogger });
await seedBenchRedirects(site);

const PAGE = '<!DOCTYPE html><title>Page</title><p>A page of the app.</p>';

function expressApp(withRedirects: boolean): Express {
  const app = express();
  if (withRedirects) app.use(siterestRedirects(site));
  app.use((_req, res) => {
    res.type('text/html').send(PAGE);
  });
  return app;
}

async function fastifyApp(withRedirects: boolean): Promise<FastifyInstance> {
  const app = Fastify();
  if (withRedirects) await app.register(siterestRedirectsFastify, { site });
  app.get('/*', (_request, reply) => reply.type('text/html').send(PAGE));
  return app;
}

const ports: Record<string, number> = {};
for (const [name, withRedirects] of [['express-bare', false], ['express-redirects', true]] as const) {
  const server = expressApp(withRedirects).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  ports[name] = (server.address() as AddressInfo).port;
}
for (const [name, withRedirects] of [['fastify-bare', false], ['fastify-redirects', true]] as const) {
  const app = await fastifyApp(withRedirects);
  await app.listen({ port: 0, host: '127.0.0.1' });
  ports[name] = (app.server.address() as AddressInfo).port;
}
console.log(JSON.stringify({ ready: true, ports, path: '/', bytes: PAGE.length }));
