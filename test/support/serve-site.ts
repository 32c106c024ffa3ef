import type { AddressInfo } from 'node:net';
import express, { type Request, type Response } from 'express';
import Fastify from 'fastify';
import { answerClientErrors, handleClientError, type Site } from '@siterest/core';
import type { RunningServer } from '@siterest/core/testing';
import { siterestExpress, siterestRedirects } from '@siterest/adapter-express';
import { siterestFastify, siterestFrameworkErrors, siterestRedirectsFastify } from '@siterest/adapter-fastify';

/** The host app's own pages: `/posts/...` and `/members/home` exist, anything else is its 404 page. */
const PAGES = /^\/(posts\/[^/]+|members\/home|newer-page|new-page)\/?$/;

/**
 * A whole site as an app embeds it: the redirect middleware at the root, the API at /api, the app's own pages
 * and its 404 page. `url` is the API root; the site root is `url` without `/api`.
 */
export async function serveSiteWithExpress(site: Site): Promise<RunningServer> {
  const app = express();
  app.use(siterestRedirects(site));
  app.use('/api', siterestExpress(site));
  app.get(PAGES, (req: Request, res: Response) => {
    res.type('text/plain').send(`page ${req.path}`);
  });
  app.use((_req: Request, res: Response) => {
    res.status(404).type('text/html').send('<!DOCTYPE html><title>Page not found</title>');
  });
  const server = answerClientErrors(app.listen(0, '127.0.0.1'));
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/api`,
    close: () => new Promise<void>((resolve, reject) => server.close((error?: Error) => (error ? reject(error) : resolve()))),
  };
}

export async function serveSiteWithFastify(site: Site): Promise<RunningServer> {
  const app = Fastify({ clientErrorHandler: handleClientError, frameworkErrors: siterestFrameworkErrors({ site, prefix: '/api' }) });
  await app.register(siterestRedirectsFastify, { site });
  await app.register(siterestFastify, { site, prefix: '/api' });
  app.get('/*', async (request, reply) => {
    const path = request.url.split('?')[0]!;
    if (PAGES.test(path)) return reply.type('text/plain').send(`page ${path}`);
    return reply.code(404).type('text/html').send('<!DOCTYPE html><title>Page not found</title>');
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/api`, close: () => app.close() };
}
