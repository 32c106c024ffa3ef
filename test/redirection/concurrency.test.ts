import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSite, manualClock, silentLogger, type Site, type SiteStore } from '@siterest/core';
import { rawRequest, type RunningServer } from '@siterest/core/testing';
import { storeVariants } from '../support/stores.js';
import { serveSiteWithExpress } from '../support/serve-site.js';

const admin = async (site: Site) => {
  const user = (await site.store.users.findByLogin('admin')) ?? (await site.createUser({ login: 'admin', roles: ['administrator'] }));
  return { id: user.id, login: user.login, roles: user.roles };
};

/** Sends `count` requests at once (as many sockets), answering when all are answered. */
async function burst(url: string, count: number): Promise<number[]> {
  return Promise.all(Array.from({ length: count }, () => rawRequest(url).then((r) => r.status)));
}

/**
 * 1,000 concurrent requests to one redirect record exactly 1,000 hits and 1,000 log rows — on each store, and
 * across two app instances sharing one store (one PostgreSQL database).
 */
describe.each(storeVariants())('concurrent visits ($label)', (variant) => {
  let first: SiteStore;
  let second: SiteStore;
  let a: Site;
  let b: Site;
  let serverA: RunningServer;
  let serverB: RunningServer;
  let id = 0;

  beforeAll(async () => {
    first = await variant.create();
    second = await variant.attach(first);
    const clock = manualClock('2026-11-21T16:41:37Z');
    a = createSite({ store: first, clock, logger: silentLogger });
    b = createSite({ store: second, clock, logger: silentLogger });
    const body = Buffer.from(JSON.stringify({ url: '/busy', match_type: 'url', action_type: 'url', action_code: 302, group_id: 1, action_data: { url: '/elsewhere' } }));
    const created = await a.handle({
      method: 'POST',
      path: '/redirection/v1/redirect',
      headers: { 'content-type': 'application/json' },
      body: { kind: 'raw', contentType: 'application/json', bytes: body },
      principal: await admin(a),
    });
    expect(created.status).toBe(200);
    id = JSON.parse(created.body).items[0].id;
    serverA = await serveSiteWithExpress(a);
    serverB = await serveSiteWithExpress(b);
  }, 120_000);

  afterAll(async () => {
    await serverA?.close();
    await serverB?.close();
    await a?.redirects.close();
    await b?.redirects.close();
    if (second !== first) await second.close?.();
    await variant.destroy(first);
  });

  const count = async () => {
    const redirect = await first.redirection.redirects.get(id);
    const logs = await first.redirection.redirectLog.list({ filter: { redirectBy: 'redirection' }, orderBy: 'id', direction: 'desc', offset: 0, limit: 5 });
    return { hits: redirect?.hits, logs: logs.total };
  };

  it('1,000 at once on one instance: 1,000 hits and 1,000 log rows', async () => {
    const statuses = await burst(`${serverA.url.replace(/\/api$/, '')}/busy`, 1000);
    expect(statuses.every((s) => s === 302)).toBe(true);
    await a.redirects.flush();
    expect(await count()).toEqual({ hits: 1000, logs: 1000 });
  }, 120_000);

  it('1,000 at once shared by two instances: every hit and row counted', async () => {
    const [x, y] = await Promise.all([burst(`${serverA.url.replace(/\/api$/, '')}/busy`, 500), burst(`${serverB.url.replace(/\/api$/, '')}/busy`, 500)]);
    expect([...x, ...y].every((s) => s === 302)).toBe(true);
    await Promise.all([a.redirects.flush(), b.redirects.flush()]);
    expect(await count()).toEqual({ hits: 2000, logs: 2000 });
  }, 120_000);

  it('a redirect created on one instance works at once on the other', async () => {
    const body = Buffer.from(JSON.stringify({ url: '/fresh', match_type: 'url', action_type: 'url', action_code: 301, group_id: 1, action_data: { url: '/t' } }));
    const rootB = serverB.url.replace(/\/api$/, '');
    expect((await rawRequest(`${rootB}/fresh`)).status).toBe(404);
    await a.handle({ method: 'POST', path: '/redirection/v1/redirect', headers: { 'content-type': 'application/json' }, body: { kind: 'raw', contentType: 'application/json', bytes: body }, principal: await admin(a) });
    await expect.poll(async () => (await rawRequest(`${rootB}/fresh`)).status, { timeout: 5000 }).toBe(301);
  });
});
