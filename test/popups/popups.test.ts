import { Agent, request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSite, manualClock, popups, silentLogger, type Site, type SiteStore } from '@siterest/core';
import { rawRequest, type RunningServer } from '@siterest/core/testing';
import { serveWithExpress } from '../../packages/adapter-express/test/serve.js';
import { storeVariants } from '../support/stores.js';

const OPEN = '/popups/v1/analytics/open';

/** Many GETs at once over a keep-alive pool of sockets, as beacons arrive. */
async function beacons(url: string, count: number): Promise<number[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const one = () =>
    new Promise<number>((resolve, reject) => {
      const req = httpRequest(url, { agent }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', reject);
      req.end();
    });
  try {
    return await Promise.all(Array.from({ length: count }, one));
  } finally {
    agent.destroy();
  }
}

for (const variant of storeVariants()) {
  describe(`popups/v1 (${variant.label})`, () => {
    let store: SiteStore;
    let site: Site;
    let server: RunningServer;
    let second: { store: SiteStore; site: Site; server: RunningServer } | null = null;
    const clock = manualClock('2026-11-21T16:41:37Z');

    beforeAll(async () => {
      store = await variant.create();
      site = createSite({ store, settings: { name: 'Popups', url: 'http://127.0.0.1:8080', gmt_offset: 2 }, clock, logger: silentLogger });
      server = await serveWithExpress(site);
    });
    afterAll(async () => {
      await server?.close();
      if (second) {
        await second.server.close();
        if (second.store !== store) await second.store.close?.();
      }
      await variant.destroy(store);
    });

    it('counts an open with an empty 200 answer and the site-local time', async () => {
      const popup = await popups(site).create({ title: 'Newsletter' });
      const response = await rawRequest(`${server.url}${OPEN}?pid=${popup.id}&_cache=1732200000000`);
      expect(response.status).toBe(200);
      expect(response.body).toBe('');
      const local = Date.parse('2026-11-21T16:41:37Z') / 1000 + 2 * 3600;
      expect(await popups(site).get(popup.id)).toMatchObject({ openCount: 1, openCountTotal: 1, lastOpened: local });
    });

    it('answers like upstream for a missing or non-numeric pid, and 400 for an id that is not a popup', async () => {
      const missing = await rawRequest(`${server.url}${OPEN}`);
      expect(missing.status).toBe(400);
      expect(JSON.parse(missing.body)).toEqual({ code: 'rest_missing_callback_param', message: 'Missing parameter(s): pid', data: { status: 400, params: ['pid'] } });
      for (const pid of ['abc', '0', '-0']) {
        const zero = await rawRequest(`${server.url}${OPEN}?pid=${pid}`);
        expect(zero.status).toBe(404);
        expect(JSON.parse(zero.body)).toEqual({ code: 'missing_params', message: 'Missing Parameters.', data: { status: 404 } });
      }
      const notPopup = await rawRequest(`${server.url}${OPEN}?pid=987654`);
      expect(notPopup.status).toBe(400);
      expect(JSON.parse(notPopup.body)).toMatchObject({ code: 'rest_invalid_param', data: { status: 400, params: { pid: 'pid does not name a popup.' } } });
      const post = await rawRequest(`${server.url}${OPEN}?pid=1`, { method: 'POST' });
      expect(post.status).toBe(404);
      const index = JSON.parse((await rawRequest(`${server.url}/popups/v1`)).body);
      expect(index.routes['/popups/v1/analytics/open'].endpoints).toEqual([{ methods: ['GET'], args: { pid: { type: 'integer', required: true } } }]);
    });

    it('adds exactly 1,000 for 1,000 concurrent opens', { timeout: 180_000 }, async () => {
      const popup = await popups(site).create({ title: 'Sale' });
      const before = await popups(site).totalOpens();
      const statuses = await beacons(`${server.url}${OPEN}?pid=${popup.id}`, 1000);
      expect(statuses.every((s) => s === 200)).toBe(true);
      expect(await popups(site).get(popup.id)).toMatchObject({ openCount: 1000, openCountTotal: 1000 });
      expect(await popups(site).totalOpens()).toBe(before + 1000);
      expect(await popups(site).resetCount(popup.id)).toMatchObject({ openCount: 0, openCountTotal: 1000 });
    });

    it('adds exactly 1,000 when two instances share the store', { timeout: 180_000 }, async () => {
      const attached = await variant.attach(store);
      const other = createSite({ store: attached, settings: { name: 'Popups', url: 'http://127.0.0.1:8080' }, clock, logger: silentLogger });
      second = { store: attached, site: other, server: await serveWithExpress(other) };
      const popup = await popups(site).create({ title: 'Shared' });
      const [a, b] = await Promise.all([beacons(`${server.url}${OPEN}?pid=${popup.id}`, 500), beacons(`${second.server.url}${OPEN}?pid=${popup.id}`, 500)]);
      expect([...a, ...b].every((s) => s === 200)).toBe(true);
      expect(await popups(other).get(popup.id)).toMatchObject({ openCount: 1000, openCountTotal: 1000 });
    });
  });
}
