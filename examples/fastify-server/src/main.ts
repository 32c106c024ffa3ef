import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { siterestFastify } from '@siterest/adapter-fastify';
import { announceAddress, banner, createExampleSite, readConfig, runUntilSignalled, startServer } from '@siterest/examples-shared';

/** A small Fastify app embedding siterest at /api, with demo data. */
startServer(async () => {
  const config = readConfig();
  const example = await createExampleSite(config);

  const app = Fastify();
  app.get('/', (_request, reply) => reply.redirect('/api/'));
  await app.register(siterestFastify, { site: example.site, prefix: '/api' });

  await app.listen({ port: config.PORT, host: config.HOST });
  await announceAddress(example, config.HOST, (app.server.address() as AddressInfo).port);
  console.log(banner('Fastify', example));
  runUntilSignalled(async () => {
    await app.close();
    await example.site.close();
  });
});
