import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { createSite, silentLogger } from '@siterest/core';
import { rawRequest } from '@siterest/core/testing';
import { memoryStore } from '@siterest/store-memory';
import { serveWithFastify } from './serve.js';

type SignedIn = FastifyRequest & { user?: { id: number } | null };

describe('fastify: the authenticate hook gets Fastify\'s request', () => {
  it('sees the user the app\'s own hook signed in', async () => {
    const seen: unknown[] = [];
    const site = createSite({
      store: memoryStore(),
      logger: silentLogger,
      authenticate: (_request, request: SignedIn) => {
        seen.push(request);
        return request.user ? { userId: request.user.id, credentials: 'header' } : null;
      },
    });
    const editor = await site.createUser({ login: 'editor', roles: ['editor'] });
    const server = await serveWithFastify(site, {
      configure: (app) => {
        app.decorateRequest('user', null);
        app.addHook('onRequest', async (request: SignedIn) => {
          if (request.headers.authorization === 'Bearer editor-token') request.user = { id: editor.id };
        });
      },
    });
    try {
      const create = (headers: Record<string, string>) =>
        rawRequest(`${server.url}/cal/events/v1/tags`, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: '{"name":"From the app"}' });
      expect((await create({})).status).toBe(401);
      const created = await create({ Authorization: 'Bearer editor-token' });
      expect(created.status).toBe(201);
      expect(seen.at(-1)).toHaveProperty('routeOptions');
    } finally {
      await server.close();
    }
  });
});
