import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSite, isStoreError, MAX_WAITING_LOG_ROWS, REDIRECTION_CHANNEL, silentLogger, type EventQuery, type Logger } from '@siterest/core';
import { newEvent, newRedirect, newVenue, taxonomies } from '@siterest/core/testing';
import { openPGlite, postgresStore, RESYNC_PAYLOAD, type PostgresStore } from '../src/index.js';
import { DATABASE_URL, dropSchema, openTestDatabase, uniqueSchema, type TestDatabase } from './support/database.js';
import { TcpProxy } from './support/tcp-proxy.js';

const unavailable = (error: unknown) => isStoreError(error, 'unavailable');
const all: EventQuery = { statuses: 'any', orderBy: 'start', offset: 0, limit: 100 };

/** Retries `work` until it succeeds: how a request after the outage sees the store. */
async function eventually<T>(work: () => Promise<T>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await work();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/** The outcome of a request, observed from the moment it starts (a rejection is never left unhandled). */
const outcome = (request: Promise<unknown>): Promise<unknown> => request.then(() => 'succeeded', (error: unknown) => error);

async function until(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  await eventually(async () => {
    if (!condition()) throw new Error('not yet');
  }, timeoutMs);
}

async function seed(store: PostgresStore) {
  const music = await store.terms.create({ taxonomy: taxonomies.category, name: 'Music', slug: 'music', description: '', parentId: 0 });
  const venue = await store.venues.create(newVenue({ title: 'Hall' }));
  for (let i = 0; i < 5; i++) {
    await store.events.create(newEvent({ title: `Concert ${i}`, startDateUtc: `2027-01-0${i + 1} 20:00:00`, categoryIds: [music.id], venueIds: [venue.id] }));
  }
  return { music, venue, snapshot: await store.events.list(all) };
}

describe('when the database cannot be reached', () => {
  it('fails fast with StoreError "unavailable" (503), reads and writes alike', async () => {
    const store = postgresStore({ connectionString: 'postgres://postgres@127.0.0.1:1/nowhere', schema: 'public' });
    const started = Date.now();
    await expect(store.events.get(1)).rejects.toSatisfy(unavailable);
    await expect(store.init()).rejects.toSatisfy(unavailable);
    await expect(store.events.create(newEvent())).rejects.toSatisfy(unavailable);
    await expect(store.transaction((tx) => tx.options.set('a', 1))).rejects.toSatisfy(unavailable);
    expect(Date.now() - started).toBeLessThan(3_000);
    await store.close();
  });

  it('answers "unavailable" once an embedded PGlite database has been closed', async () => {
    const pglite = await openPGlite();
    const store = postgresStore({ pglite, schema: 'siterest_closed' });
    await store.migrate();
    const event = await store.events.create(newEvent());
    await pglite.close();
    await expect(store.events.get(event.id)).rejects.toSatisfy(unavailable);
    await expect(store.events.create(newEvent())).rejects.toSatisfy(unavailable);
    await expect(store.terms.delete(1)).rejects.toSatisfy(unavailable);
    await store.close();
    // Opening PGlite alone can take most of a minute on a busy machine.
  }, 180_000);
});

// These need a server whose backends can be terminated and whose address can be cut.
const serverUrl = DATABASE_URL ?? '';
describe.skipIf(!serverUrl)('on a PostgreSQL server (skipped without one: set DATABASE_URL)', () => {
  describe('when connections drop on a PostgreSQL server', () => {
    let db: TestDatabase;
    const schemas: string[] = [];

    beforeAll(async () => {
      db = await openTestDatabase();
    });

    afterAll(async () => {
      for (const schema of schemas) await dropSchema(db, schema);
      await db?.close();
    });

    it('survives pg_terminate_backend mid-transaction: clean errors, no partial write, recovery without restart', async () => {
      const schema = uniqueSchema('fault');
      schemas.push(schema);
      const app = `siterest-fault-${randomBytes(4).toString('hex')}`;
      const store = postgresStore({ ...db.connection(app), schema });
      const other = postgresStore({ ...db.connection(`${app}-b`), schema });
      await store.migrate();
      const { music, snapshot } = await seed(store);
      const heard: string[] = [];
      const off = store.subscribe('cache', (payload) => heard.push(payload));
      await off.ready;

      // Two requests are under way when the server kills the store's connections: one single statement waiting on a
      // row lock another instance holds, one transaction half-way (an inline venue written, its event not yet).
      let openGate!: () => void;
      let lockHeld!: () => void;
      const gate = new Promise<void>((resolve) => (openGate = resolve));
      const holding = new Promise<void>((resolve) => (lockHeld = resolve));
      const blocker = other.transaction(async (tx) => {
        await tx.options.set('flag', 'held by the other instance');
        lockHeld();
        await gate;
      });
      await holding;
      const inFlight = outcome(store.options.set('flag', 'from the killed connection'));
      let resume!: () => void;
      let paused!: () => void;
      const atPause = new Promise<void>((resolve) => (paused = resolve));
      const resumed = new Promise<void>((resolve) => (resume = resolve));
      const request = outcome(
        store.transaction(async (tx) => {
          await tx.venues.create(newVenue({ title: 'Ghost venue' }));
          paused();
          await resumed;
          await tx.events.create(newEvent({ title: 'Ghost event', categoryIds: [music.id] }));
        }),
      );
      await atPause;
      await eventually(async () => {
        const rows = await db.admin(`SELECT 1 FROM pg_stat_activity WHERE application_name = $1 AND wait_event_type = 'Lock'`, [app]);
        if (rows.length === 0) throw new Error('the statement is not waiting yet');
      }, 5_000);
      const killed = await db.admin('SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity WHERE application_name = $1', [app]);
      expect(killed.length).toBeGreaterThanOrEqual(3); // the waiting statement's, the transaction's and the LISTEN connection
      resume();
      expect(unavailable(await inFlight)).toBe(true);
      expect(unavailable(await request)).toBe(true);
      openGate();
      await blocker;

      // Requests arriving meanwhile either succeed on a new connection or fail cleanly: never another error.
      const meanwhile = await Promise.allSettled(Array.from({ length: 6 }, () => store.events.list(all)));
      for (const result of meanwhile) if (result.status === 'rejected') expect(unavailable(result.reason)).toBe(true);

      // The same store object recovers by itself, and everything written before is intact; nothing of the killed transaction is.
      expect(await eventually(() => store.events.list(all))).toEqual(snapshot);
      expect(await store.venues.findByTitle('Ghost venue')).toEqual([]);
      expect(await store.options.get('flag')).toBe('held by the other instance');
      expect((await store.terms.get(music.id))?.count).toBe(5);
      const after = await store.events.create(newEvent({ title: 'After the outage', categoryIds: [music.id] }));
      expect((await other.events.get(after.id))?.title).toBe('After the outage');
      expect((await store.terms.get(music.id))?.count).toBe(6);

      // The LISTEN connection came back too: listeners are told to resync, then hear new messages.
      await until(() => heard.includes(RESYNC_PAYLOAD));
      await other.publish('cache', 'after recovery');
      await until(() => heard.includes('after recovery'));
      off();
      await Promise.all([store.close(), other.close()]);
    });

    /** A schema of its own and a started TCP proxy in front of the server, with the connection string through it. */
    async function behindProxy(label: string): Promise<{ schema: string; proxy: TcpProxy; connectionString: string }> {
      const schema = uniqueSchema(label);
      schemas.push(schema);
      const target = new URL(serverUrl);
      const proxy = new TcpProxy(target.hostname, Number(target.port || 5432));
      await proxy.start();
      const viaProxy = new URL(serverUrl);
      viaProxy.hostname = '127.0.0.1';
      viaProxy.port = String(proxy.port);
      return { schema, proxy, connectionString: viaProxy.toString() };
    }

    /**
     * A site with Redirection installed on a store behind a proxy, a second store on the server directly, what
     * the site logs (warnings with their details, and info lines), and the notices the store hears on
     * REDIRECTION_CHANNEL. A redirect /old → /new is created and announced, and its own notice heard: a late one
     * would drop the matcher built for the requests that follow.
     */
    async function redirectionBehindProxy(label: string) {
      const { schema, proxy, connectionString } = await behindProxy(label);
      const store = postgresStore({ connectionString, schema, poolConfig: { connectionTimeoutMillis: 1_000 }, migrate: true });
      const other = postgresStore({ ...db.connection(), schema });
      const warnings: Array<[string, Record<string, unknown> | undefined]> = [];
      const infos: string[] = [];
      const logger: Logger = { ...silentLogger, warn: (message, details) => void warnings.push([message, details]), info: (message) => void infos.push(message) };
      const site = createSite({ store, logger });
      await store.init();
      await site.redirects.ready();
      const [group] = await store.redirection.groups.all();
      const heard: string[] = [];
      const off = store.subscribe(REDIRECTION_CHANNEL, (payload) => heard.push(payload));
      await off.ready;
      const redirect = await store.redirection.redirects.create(newRedirect({ groupId: group!.id }), { appendPosition: true });
      await site.redirects.changed();
      await until(() => heard.includes('redirects'));
      const close = async () => {
        off();
        await site.close();
        await other.close();
        await proxy.stop();
      };
      return { proxy, other, site, group: group!, redirect, warnings, infos, close };
    }

    it('finds a listening connection that went silent for good, listens on a new one and resyncs the caches', async () => {
      const { schema, proxy, connectionString } = await behindProxy('stranded');
      const store = postgresStore({ connectionString, schema, statementTimeout: 500, listenerHeartbeat: 200, migrate: true });
      const other = postgresStore({ ...db.connection(), schema });
      await store.init();
      const heard: string[] = [];
      const off = store.subscribe('cache', (payload) => heard.push(payload));
      await off.ready;
      await other.publish('cache', 'before');
      await until(() => heard.includes('before'));

      // Every connection open now, the listening one included, stops carrying anything; nothing tells either end.
      proxy.strand();
      await other.publish('cache', 'lost');
      // Within a check and its limit (0.2 s + 1.5 s): the silent connection is dropped, a new one listens, and the
      // caches hear "resync" for what the old one lost.
      await until(() => heard.includes(RESYNC_PAYLOAD), 5_000);
      expect(heard).not.toContain('lost');
      await other.publish('cache', 'after');
      await until(() => heard.includes('after'), 5_000);
      off();
      await Promise.all([store.close(), other.close()]);
      await proxy.stop();
    });

    it("keeps Redirection's hits and at most MAX_WAITING_LOG_ROWS log rows while the server is unreachable, and stores the hits when it is back", async () => {
      const { proxy, other, site, redirect, warnings, close } = await redirectionBehindProxy('recorder');
      const visit = { method: 'GET', url: '/old', headers: {} };
      expect((await site.redirects.handle(visit)).action).toBe('redirect');
      await site.redirects.flush();
      expect((await other.redirection.redirects.get(redirect.id))?.hits).toBe(1);

      await proxy.stop();
      // Requests keep coming while nothing can be written: each redirect adds a hit and a log row, each 404 a row.
      const visits = MAX_WAITING_LOG_ROWS * 2.5;
      for (let i = 0; i < visits; i++) site.redirects.notFound({ method: 'GET', url: `/missing/${i}`, headers: {} });
      for (let i = 0; i < visits; i += 1_000) await Promise.all(Array.from({ length: 1_000 }, () => site.redirects.handle(visit)));
      const backlog = site.redirects.backlog();
      expect(backlog.notFoundLog).toBeLessThanOrEqual(MAX_WAITING_LOG_ROWS);
      expect(backlog.redirectLog).toBeLessThanOrEqual(MAX_WAITING_LOG_ROWS);
      expect(backlog.hits).toBeLessThanOrEqual(1);
      expect(warnings.filter(([message]) => message.includes('not checked for redirects'))).toEqual([]);
      expect(backlog.droppedLogRows).toBeGreaterThan(0);

      // Batches fail for good meanwhile (five tries each): their log rows are given up, their hits kept.
      await until(() => warnings.some(([message]) => message.includes('log rows dropped')), 10_000);
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      await proxy.start();
      await eventually(async () => {
        await site.redirects.flush();
        expect((await other.redirection.redirects.get(redirect.id))?.hits).toBe(1 + visits);
      }, 20_000);
      const dropped = warnings.filter(([message]) => message.includes('log rows dropped')).reduce((sum, [, details]) => sum + Number(details?.dropped), 0);
      expect(dropped).toBeGreaterThan(0);
      expect(dropped).toBeLessThanOrEqual(site.redirects.backlog().droppedLogRows);
      await close();
    }, 60_000);

    it('keeps redirecting with the redirects loaded before when a change comes while they cannot be loaded again', async () => {
      const { proxy, other, site, group, warnings, infos, close } = await redirectionBehindProxy('stale');
      const visit = (url: string) => site.redirects.handle({ method: 'GET', url, headers: {} });
      expect(await visit('/old')).toMatchObject({ action: 'redirect', location: '/new' });

      // The server goes away, and a change drops what this instance loaded (here its own, whose notice cannot be
      // sent; as well the store's resync when its listening connection comes back before reads succeed, or a late
      // notice): requests keep the redirects they had, without waiting for a load each, and one warning is all.
      await other.redirection.redirects.create(newRedirect({ groupId: group.id, url: '/added', matchUrl: '/added', actionData: { url: '/there' } }), { appendPosition: true });
      await proxy.stop();
      await expect(site.redirects.changed()).rejects.toSatisfy(unavailable);
      const started = Date.now();
      for (let i = 0; i < 200; i++) expect(await visit('/old')).toMatchObject({ action: 'redirect', location: '/new' });
      expect(Date.now() - started).toBeLessThan(3_000);
      expect(await visit('/added')).toMatchObject({ action: 'continue' });
      expect(warnings.filter(([message]) => message.includes('cannot be loaded'))).toHaveLength(1);
      expect(warnings.filter(([message]) => message.includes('not checked for redirects'))).toEqual([]);

      // Back: a reload succeeds within a retry's wait, and the change made meanwhile is served.
      await proxy.start();
      await eventually(async () => expect(await visit('/added')).toMatchObject({ action: 'redirect', location: '/there' }));
      expect(infos.some((message) => message.includes('loaded again'))).toBe(true);
      await close();
    }, 30_000);

    it('fails fast while the server is unreachable and recovers when it is back', async () => {
      const { schema, proxy, connectionString } = await behindProxy('outage');
      const store = postgresStore({ connectionString, schema, poolConfig: { connectionTimeoutMillis: 1_000 }, migrate: true });
      const other = postgresStore({ ...db.connection(), schema });
      await store.init();
      const { snapshot } = await seed(store);
      const heard: string[] = [];
      const off = store.subscribe('cache', (payload) => heard.push(payload));
      await off.ready;

      await proxy.stop();
      const started = Date.now();
      await expect(store.events.list(all)).rejects.toSatisfy(unavailable);
      await expect(store.events.create(newEvent({ title: 'During the outage' }))).rejects.toSatisfy(unavailable);
      await expect(store.options.set('x', 1)).rejects.toSatisfy(unavailable);
      expect(Date.now() - started).toBeLessThan(3_000);
      expect((await other.events.list(all)).total).toBe(snapshot.total);

      await proxy.start();
      expect(await eventually(() => store.events.list(all))).toEqual(snapshot);
      await store.options.set('x', 2);
      expect(await other.options.get('x')).toBe(2);
      await until(() => heard.includes(RESYNC_PAYLOAD));
      await other.publish('cache', 'back');
      await until(() => heard.includes('back'));
      off();
      await Promise.all([store.close(), other.close()]);
      await proxy.stop();
    });
  });
});
