import { describe, expect, it } from 'vitest';
import { builtInNamespaces, coreErrors, createSite, defineNamespace, READABLE, silentLogger, type Logger, type SiteStore } from '@siterest/core';
import { memoryStore } from '@siterest/store-memory';

/** A store whose init fails until `healthy` is set, like a database that is not there yet. */
function flakyStore(): SiteStore & { healthy: boolean; attempts: number } {
  const store: SiteStore & { healthy: boolean; attempts: number } = Object.assign(memoryStore(), {
    healthy: false,
    attempts: 0,
    async init() {
      store.attempts++;
      if (!store.healthy) throw new Error('connect ECONNREFUSED 127.0.0.1:5432');
    },
  });
  return store;
}

describe('a store that cannot start', () => {
  it('makes site.ready() fail with the store\'s error', async () => {
    const store = flakyStore();
    const site = createSite({ store, logger: { error() {}, warn() {}, info() {} } });
    await expect(site.ready()).rejects.toThrow(/ECONNREFUSED/);
  });

  it('answers 503 rest_service_unavailable meanwhile, logs once, and serves once the store is back', async () => {
    const store = flakyStore();
    const errors: string[] = [];
    const logger: Logger = { error: (message) => errors.push(message), warn() {}, info() {} };
    const site = createSite({ store, logger });
    const answers = await Promise.all(Array.from({ length: 5 }, () => site.handle({ method: 'GET', path: '/', headers: {} })));
    for (const answer of answers) {
      expect(answer.status).toBe(503);
      expect(JSON.parse(answer.body)).toMatchObject({ code: 'rest_service_unavailable', data: { status: 503 } });
      expect(answer.headers).toContainEqual(['Retry-After', '5']);
    }
    // One attempt for the burst, one log line; requests right after do not hammer the store again.
    expect(store.attempts).toBe(1);
    expect(errors).toHaveLength(1);
    expect((await site.handle({ method: 'GET', path: '/', headers: {} })).status).toBe(503);
    expect(store.attempts).toBe(1);

    store.healthy = true;
    await site.ready();
    expect((await site.handle({ method: 'GET', path: '/', headers: {} })).status).toBe(200);
  });
});

describe('the site description and the error catalogue', () => {
  it('advertises the application-password page under the current site URL, also after the settings change', async () => {
    const site = createSite({ store: memoryStore(), logger: silentLogger, settings: {} });
    const authorization = async () => JSON.parse((await site.handle({ method: 'GET', path: '/', headers: {} })).body).authentication['application-passwords'].endpoints.authorization;
    expect(await authorization()).toBe('http://localhost/wp-admin/authorize-application.php');
    await site.updateSettings({ url: 'https://moved.example' });
    expect(await authorization()).toBe('https://moved.example/wp-admin/authorize-application.php');
  });

  it('keeps the settings a later reload read when an earlier one finishes last', async () => {
    const store = memoryStore();
    const site = createSite({ store, logger: silentLogger, settings: {} });
    await site.ready();
    // The first reload reads the options, then its answer is held back (a slow pooled connection) until the
    // second, which read after a write, has finished.
    const readAll = store.options.all.bind(store.options);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let reads = 0;
    store.options.all = async () => {
      const saved = await readAll();
      if (++reads === 1) await held;
      return saved;
    };
    const first = site.reloadSettings();
    await store.options.set('url', 'https://later.example');
    await site.reloadSettings();
    expect(site.settings.url).toBe('https://later.example');
    release();
    await first;
    expect(reads).toBe(2);
    expect(site.settings.url).toBe('https://later.example');
  });

  it('answers an unexpected failure with the catalogue\'s internal error', async () => {
    const broken = defineNamespace({ namespace: 'broken/v1', routes: [{ path: '/boom', endpoints: [{ methods: READABLE, handler: () => { throw new Error('detail'); } }] }] });
    const site = createSite({ store: memoryStore(), logger: silentLogger, namespaces: [...builtInNamespaces(), broken] });
    const answer = await site.handle({ method: 'GET', path: '/broken/v1/boom', headers: {} });
    expect(answer.status).toBe(500);
    expect(JSON.parse(answer.body)).toEqual(coreErrors.internal().toWire());
  });
});
