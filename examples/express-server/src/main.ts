import type { AddressInfo } from 'node:net';
import express from 'express';
import { answerClientErrors, siterestExpress, siterestRedirects } from '@siterest/adapter-express';
import { announceAddress, banner, createExampleSite, readConfig, readEmbedPage, readUpload, runUntilSignalled, startServer } from '@siterest/examples-shared';

/** A small Express app embedding siterest at /api and its redirects at the root, with demo data. */
startServer(async () => {
  const config = readConfig();
  const example = await createExampleSite(config);

  const app = express();
  // Redirects first: a redirect created through redirection/v1 works at once on every path of the app.
  app.use(siterestRedirects(example.site));
  app.get('/', (_req, res) => res.redirect('/api/'));
  app.use('/api', siterestExpress(example.site));
  // The media library's files, and the pages oEmbed iframes show.
  app.get(/^\/uploads\/(.+)$/, async (req, res) => {
    const file = await readUpload(example.site, req.path.slice('/uploads/'.length));
    if (!file) return void res.status(404).end();
    res.type(file.type).set('X-Content-Type-Options', 'nosniff').send(file.data);
  });
  app.get(/\/embed\/?$/, async (req, res) => {
    const html = await readEmbedPage(example.site, req.path);
    if (!html) return void res.status(404).end();
    res.type('html').send(html);
  });

  // Requests Node refuses before the app sees them (headers over 16 KB) get WordPress's JSON envelope.
  const server = answerClientErrors(app.listen(config.PORT, config.HOST));
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  await announceAddress(example, config.HOST, (server.address() as AddressInfo).port);
  console.log(banner('Express', example));
  runUntilSignalled(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await example.site.close();
  });
});
