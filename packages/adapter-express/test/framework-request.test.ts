import type { Request } from 'express';
import { describe, expect, it } from 'vitest';
import { createSite, silentLogger } from '@siterest/core';
import { rawRequest } from '@siterest/core/testing';
import { memoryStore } from '@siterest/store-memory';
import { serveWithExpress } from './serve.js';

type SignedIn = Request & { user?: { id: number } };

describe('express: the authenticate hook gets Express\'s req', () => {
  it('sees the user the app\'s own middleware signed in', async () => {
    const seen: unknown[] = [];
    const site = createSite({
      store: memoryStore(),
      logger: silentLogger,
      authenticate: (_request, req: SignedIn) => {
        seen.push(req);
        return req.user ? { userId: req.user.id, credentials: 'header' } : null;
      },
    });
    const editor = await site.createUser({ login: 'editor', roles: ['editor'] });
    const server = await serveWithExpress(site, {
      configure: (app) =>
        app.use((req: SignedIn, _res, next) => {
          if (req.headers.authorization === 'Bearer editor-token') req.user = { id: editor.id };
          next();
        }),
    });
    try {
      const create = (headers: Record<string, string>) =>
        rawRequest(`${server.url}/cal/events/v1/tags`, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: '{"name":"From the app"}' });
      expect((await create({})).status).toBe(401);
      const created = await create({ Authorization: 'Bearer editor-token' });
      expect(created.status).toBe(201);
      expect(seen.at(-1)).toHaveProperty('originalUrl', '/api/cal/events/v1/tags');
    } finally {
      await server.close();
    }
  });
});
