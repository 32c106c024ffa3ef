import { afterEach, describe, expect, it } from 'vitest';
import { basicAuth, header, rawRequest } from '@siterest/core/testing';
import { startExample, type StartedExample } from './spawn.js';
import { exampleDatabase } from './test-database.js';

/** What both example servers must do when started the way the README says. */
export function exampleServerSuite(name: string, main: string): void {
  describe(`${name} example server`, () => {
    let running: StartedExample | null = null;

    afterEach(async () => {
      if (running) expect(await running.stop()).toBe(0);
      running = null;
    });

    it('serves the API with demo data and prints working credentials', async () => {
      running = await startExample(main, { SITEREST_NOW: '2026-11-21T16:41:37Z', SITEREST_SITE_NAME: 'Demo Town' });
      const root = await rawRequest(running.apiUrl);
      expect(root.status).toBe(200);
      expect(JSON.parse(root.body)).toMatchObject({ name: 'Demo Town', url: running.apiUrl.replace(/\/api\/$/, '') });
      const categories = JSON.parse((await rawRequest(`${running.apiUrl}cal/events/v1/categories?hide_empty=0&per_page=50`)).body);
      expect(categories.total).toBeGreaterThan(5);
      expect(running.password).toMatch(/^[A-Za-z0-9]{24}$/);
      const created = await rawRequest(`${running.apiUrl}cal/events/v1/tags`, {
        method: 'POST',
        headers: { Authorization: basicAuth('admin', running.password!), 'Content-Type': 'application/json' },
        body: '{"name":"From the test"}',
      });
      expect(created.status).toBe(201);
    });

    it('redirects at the root: the demo redirects, and one created through the API at once', async () => {
      running = await startExample(main, { SITEREST_NOW: '2026-11-21T16:41:37Z' });
      const root = running.apiUrl.replace(/api\/$/, '');
      const demo = await rawRequest(`${root}old-page`);
      expect(demo.status).toBe(301);
      expect(header(demo, 'location')).toBe('/api/');
      const created = await rawRequest(`${running.apiUrl}redirection/v1/redirect`, {
        method: 'POST',
        headers: { Authorization: basicAuth('admin', running.password!), 'Content-Type': 'application/json' },
        body: JSON.stringify({ url: '/brand-new', action_type: 'url', match_type: 'url', action_code: 301, group_id: 1, action_data: { url: '/api/' } }),
      });
      expect(created.status).toBe(200);
      const redirected = await rawRequest(`${root}brand-new`);
      expect(redirected.status).toBe(301);
      expect(header(redirected, 'x-redirect-by')).toBe('redirection');
      expect((await rawRequest(`${root}retired-page`)).status).toBe(410);
    });

    it('takes the admin password from the environment and starts empty without the seed', async () => {
      running = await startExample(main, { SITEREST_ADMIN_PASSWORD: 'demo-secret-1', SITEREST_SEED: 'none' });
      expect(running.password).toBeNull();
      expect(running.output()).not.toContain('demo-secret-1');
      const categories = JSON.parse((await rawRequest(`${running.apiUrl}cal/events/v1/categories?hide_empty=0`)).body);
      expect(categories.total).toBe(0);
      const whoami = await rawRequest(`${running.apiUrl}cal/events/v1/categories`, {
        method: 'POST',
        headers: { Authorization: basicAuth('admin', 'demo-secret-1'), 'Content-Type': 'application/json' },
        body: '{"name":"Env"}',
      });
      expect(whoami.status).toBe(201);
    });

    it('keeps its data in PostgreSQL across restarts when DATABASE_URL is set', async () => {
      const database = await exampleDatabase();
      try {
        running = await startExample(main, { DATABASE_URL: database.url, SITEREST_NOW: '2026-11-21T16:41:37Z' });
        const first = JSON.parse((await rawRequest(`${running.apiUrl}cal/events/v1/events?per_page=1`)).body);
        expect(first.total).toBeGreaterThan(20);
        const created = await rawRequest(`${running.apiUrl}cal/events/v1/tags`, {
          method: 'POST',
          headers: { Authorization: basicAuth('admin', running.password!), 'Content-Type': 'application/json' },
          body: '{"name":"Persisted"}',
        });
        expect(created.status).toBe(201);
        expect(await running.stop()).toBe(0);
        running = await startExample(main, { DATABASE_URL: database.url, SITEREST_NOW: '2026-11-21T16:41:37Z' });
        const again = JSON.parse((await rawRequest(`${running.apiUrl}cal/events/v1/events?per_page=1`)).body);
        expect(again.total).toBe(first.total);
        const tags = JSON.parse((await rawRequest(`${running.apiUrl}cal/events/v1/tags?hide_empty=0&search=Persisted`)).body);
        expect(tags.total).toBe(1);
      } finally {
        if (running) expect(await running.stop()).toBe(0);
        running = null;
        await database.drop();
      }
    });

    it('refuses an invalid environment with a clear message', async () => {
      await expect(startExample(main, { PORT: 'eighty' })).rejects.toThrow(/PORT/);
    });
  });
}
