// Compiled by pack:check against the packed tarballs with `strict` and `skipLibCheck: false` (CommonJS).
import type { Request } from 'express';
import { createSite, type Site } from '@siterest/core';
import { memoryStore } from '@siterest/store-memory';
import { postgresStore } from '@siterest/store-postgres';
import { siterestExpress } from '@siterest/adapter-express';
import { siterestFastify } from '@siterest/adapter-fastify';

async function main(): Promise<void> {
  const site: Site<Request> = createSite({ store: memoryStore(), authenticate: (_request, req: Request) => (req.ip ? null : null) });
  siterestExpress(site);
  void siterestFastify;
  void postgresStore;
  site.serves('/cal/events/v1');
  await site.ready();
}
void main;
