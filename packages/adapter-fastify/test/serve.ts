import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Site } from '@siterest/core';
import type { RunningServer } from '@siterest/core/testing';
import { siterestFastify } from '@siterest/adapter-fastify';

/** A Fastify app embedding the site at /api on a random port. */
export async function serveWithFastify(site: Site, configure?: (app: FastifyInstance) => void): Promise<RunningServer> {
  const app = Fastify();
  configure?.(app);
  await app.register(siterestFastify, { site, prefix: '/api' });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/api`, close: () => app.close() };
}
