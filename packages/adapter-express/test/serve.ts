import type { AddressInfo } from 'node:net';
import express from 'express';
import { answerClientErrors, type Site } from '@siterest/core';
import type { RunningServer, ServeOptions } from '@siterest/core/testing';
import { siterestExpress } from '@siterest/adapter-express';

/** Body parsers an app may run before siterest. */
export type AppParser = 'json' | 'urlencoded' | 'text';

export interface ExpressAppOptions extends ServeOptions {
  parsers?: readonly AppParser[];
  /** Middleware of the app that runs before everything (sessions, say). */
  configure?: (app: express.Express) => void;
}

/**
 * An Express app embedding the site at /api on a random port, as the adapter contract describes it: the app's
 * own parsers first, an app route before the mount and one after it, and the app's own 404.
 */
export async function serveWithExpress(site: Site<express.Request>, options: ExpressAppOptions = {}): Promise<RunningServer> {
  const app = express();
  options.configure?.(app);
  for (const parser of options.parsers ?? []) {
    if (parser === 'json') app.use(express.json());
    if (parser === 'urlencoded') app.use(express.urlencoded());
    if (parser === 'text') app.use(express.text());
  }
  app.get('/api/app/before', (_req, res) => res.type('text').send('app: before'));
  app.use('/api', siterestExpress(site, { unmatched: options.unmatched }));
  app.get('/api/app/after', (_req, res) => res.type('text').send('app: after'));
  app.use((_req: express.Request, res: express.Response) => res.status(404).type('text').send('app: not found'));
  // Requests Node's parser refuses (over-large headers) get WordPress's envelope too.
  const server = answerClientErrors(app.listen(0, '127.0.0.1'));
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/api`,
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}
