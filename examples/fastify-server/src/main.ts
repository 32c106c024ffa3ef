import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { handleClientError, siterestFastify, siterestFrameworkErrors, siterestRedirectsFastify } from '@siterest/adapter-fastify';
import { announceAddress, banner, createExampleSite, readConfig, readEmbedPage, readUpload, runUntilSignalled, startServer } from '@siterest/examples-shared';

/** A small Fastify app embedding siterest at /api and its redirects at the root, with demo data. */
startServer(async () => {
  const config = readConfig();
  const example = await createExampleSite(config);

  // Requests Node refuses before the app sees them (headers over 16 KB), and paths Fastify cannot percent-decode
  // under /api, get WordPress's JSON envelope.
  const app = Fastify({ clientErrorHandler: handleClientError, frameworkErrors: siterestFrameworkErrors({ site: example.site, prefix: '/api' }) });
  // Redirects first: a redirect created through redirection/v1 works at once on every path of the app.
  await app.register(siterestRedirectsFastify, { site: example.site });
  app.get('/', (_request, reply) => reply.redirect('/api/'));
  await app.register(siterestFastify, { site: example.site, prefix: '/api' });
  // The media library's files, and the pages oEmbed iframes show.
  app.get('/uploads/*', async (request, reply) => {
    const file = await readUpload(example.site, (request.params as { '*': string })['*']);
    if (!file) return reply.code(404).send();
    return reply.type(file.type).header('X-Content-Type-Options', 'nosniff').send(file.data);
  });
  app.get('/*', async (request, reply) => {
    const path = request.url.split('?')[0]!;
    const html = /\/embed\/?$/.test(path) ? await readEmbedPage(example.site, path) : null;
    if (!html) return reply.code(404).send();
    return reply.type('text/html; charset=utf-8').send(html);
  });

  await app.listen({ port: config.PORT, host: config.HOST });
  await announceAddress(example, config.HOST, (app.server.address() as AddressInfo).port);
  console.log(banner('Fastify', example));
  runUntilSignalled(async () => {
    await app.close();
    await example.site.close();
  });
});
