import type { AddressInfo } from 'node:net';
import express from 'express';
import type { Site } from '@siterest/core';
import type { RunningServer } from '@siterest/core/testing';
import { siterestExpress } from '@siterest/adapter-express';

/** An Express app embedding the site at /api on a random port. */
export async function serveWithExpress(site: Site, configure?: (app: express.Express) => void): Promise<RunningServer> {
  const app = express();
  configure?.(app);
  app.use('/api', siterestExpress(site));
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/api`,
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}
