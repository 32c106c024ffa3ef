import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import { handleClientError, type Site } from '@siterest/core';
import type { RunningServer, ServeOptions } from '@siterest/core/testing';
import { siterestFastify, siterestFrameworkErrors } from '@siterest/adapter-fastify';

/**
 * A Fastify app embedding the site at /api on a random port, as the adapter contract describes it: an app route
 * before the plugin and one after it, and the app's own 404.
 */
export async function serveWithFastify(
  site: Site<FastifyRequest>,
  options: ServeOptions & { configure?: (app: FastifyInstance) => void } = {},
): Promise<RunningServer> {
  // Requests Node's parser refuses (over-large headers) and paths Fastify cannot decode get WordPress's envelope too.
  const app = Fastify({ clientErrorHandler: handleClientError, frameworkErrors: siterestFrameworkErrors({ site, prefix: '/api', unmatched: options.unmatched }) });
  options.configure?.(app);
  app.get('/api/app/before', async (_request, reply) => reply.type('text/plain').send('app: before'));
  await app.register(siterestFastify, { site, prefix: '/api', unmatched: options.unmatched });
  app.get('/api/app/after', async (_request, reply) => reply.type('text/plain').send('app: after'));
  app.setNotFoundHandler(async (_request, reply) => reply.code(404).type('text/plain').send('app: not found'));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/api`, close: () => app.close() };
}
