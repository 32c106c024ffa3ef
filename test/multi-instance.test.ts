import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSite, manualClock, silentLogger, type Site, type SiteStore } from '@siterest/core';
import { newEvent } from '@siterest/core/testing';
import { storeVariants } from './support/stores.js';

/**
 * Several siterest instances on one store (one database for PostgreSQL): what one writes, the others serve at
 * once; settings one instance changes reach the others' caches through the store's notifications.
 */
describe.each(storeVariants())('many instances on one store ($label)', (variant) => {
  let first: SiteStore;
  let second: SiteStore;
  let a: Site;
  let b: Site;

  beforeAll(async () => {
    first = await variant.create();
    second = await variant.attach(first);
    const clock = manualClock('2026-11-21T16:41:37Z');
    a = createSite({ store: first, clock, logger: silentLogger, settings: { url: 'http://a.example' } });
    b = createSite({ store: second, clock, logger: silentLogger, settings: { url: 'http://b.example' } });
    await a.createUser({ login: 'admin', roles: ['administrator'] });
    await b.ready();
  });

  afterAll(async () => {
    if (second !== first) await second.close?.();
    await variant.destroy(first);
  });

  const principal = async (site: Site) => {
    const user = (await site.store.users.findByLogin('admin'))!;
    return { id: user.id, login: user.login, roles: user.roles };
  };

  it('verifies on one instance the nonces another issued', async () => {
    const nonce = await a.createNonce(0);
    const withNonce = (value: string) => b.handle({ method: 'GET', path: '/', headers: { 'x-wp-nonce': value } });
    expect((await withNonce(nonce)).status).toBe(200);
    expect((await withNonce(nonce === '0123456789' ? '9876543210' : '0123456789')).status).toBe(403);
  });

  it('serves from one instance what another just wrote, even from a list it had cached', async () => {
    const total = async () => JSON.parse((await b.handle({ method: 'GET', path: '/cal/events/v1/events', headers: {} })).body).total;
    expect(await total()).toBe(0);
    expect(await total()).toBe(0);
    const body = Buffer.from(JSON.stringify({ title: 'Shared', start_date: '2027-01-01 10:00:00', end_date: '2027-01-01 11:00:00' }));
    const created = await a.handle({
      method: 'POST',
      path: '/cal/events/v1/events',
      headers: { 'content-type': 'application/json' },
      body: { kind: 'raw', contentType: 'application/json', bytes: body },
      principal: await principal(a),
    });
    expect(created.status).toBe(201);
    const id = JSON.parse(created.body).id;
    const read = await b.handle({ method: 'GET', path: `/cal/events/v1/events/${id}`, headers: {} });
    expect(read.status).toBe(200);
    expect(JSON.parse(read.body).title).toBe('Shared');
    expect(await total()).toBe(1);
    // A write made on the store directly (an import, say) counts as well.
    const direct = await first.events.create(newEvent({ title: 'Imported', startDateUtc: '2027-02-01 10:00:00', startDate: '2027-02-01 10:00:00' }));
    expect(await total()).toBe(2);
    await first.events.update(direct.id, { status: 'draft' });
    expect(await total()).toBe(1);
  });

  it('tells the other instances when settings change', async () => {
    await a.updateSettings({ name: 'Renamed everywhere', posts_per_page: 25 });
    await expect.poll(() => b.settings.name, { timeout: 5_000 }).toBe('Renamed everywhere');
    expect(b.settings.posts_per_page).toBe(25);
    // Settings given to createSite still win over saved ones.
    expect(b.settings.url).toBe('http://b.example');
  });
});
