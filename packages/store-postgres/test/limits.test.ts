import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSite, isStoreError, silentLogger, type EventQuery } from '@siterest/core';
import { newEvent, newVenue } from '@siterest/core/testing';
import { openPGlite, postgresStore, type PostgresStore, type PostgresStoreOptions } from '../src/index.js';
import { DATABASE_URL, dropSchema, openTestDatabase, uniqueSchema, type TestDatabase } from './support/database.js';
import { TcpProxy } from './support/tcp-proxy.js';

/**
 * The store's limits: no statement, wait for a connection or transaction outlives its timeout, whatever the
 * pool's own settings, and a silent network cut answers "unavailable" instead of hanging.
 *
 * Elapsed times are compared with bounds many times the limits, so a loaded machine cannot make them flaky; a
 * store without limits would wait for the whole 20 s statement or cut.
 */
const unavailable = (error: unknown) => isStoreError(error, 'unavailable');
const all: EventQuery = { statuses: 'any', orderBy: 'start', offset: 0, limit: 100 };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Opening PGlite alone can take most of a minute on a busy machine. */
const SLOW = 180_000;

/** How long `work` took to settle, and how. */
async function timed(work: Promise<unknown>): Promise<{ ms: number; error: unknown }> {
  const started = Date.now();
  try {
    await work;
    return { ms: Date.now() - started, error: null };
  } catch (error) {
    return { ms: Date.now() - started, error };
  }
}

/** A gate a transaction waits behind while a test looks at what it holds. */
function gate(): { open: () => void; wait: Promise<void> } {
  let open!: () => void;
  const wait = new Promise<void>((resolve) => (open = resolve));
  return { open, wait };
}

type Kind = 'PGlite' | 'app pool' | 'own pool';

/**
 * The three ways a store reaches its database, each with two connections: a site's LISTEN takes one, so one caller
 * can hold the other.
 */
async function storeOn(kind: Kind, schema: string, options: Partial<PostgresStoreOptions>): Promise<{ store: PostgresStore; close: () => Promise<void> }> {
  if (kind === 'PGlite') {
    const pglite = await openPGlite();
    const store = postgresStore({ pglite, schema, migrate: true, ...options });
    await store.init();
    return { store, close: async () => (await store.close(), await pglite.close()) };
  }
  if (kind === 'app pool') {
    // The app's pool sets no timeout of its own: the store's limits must hold anyway.
    const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 2, application_name: 'siterest-limits' });
    const store = postgresStore({ pool, schema, migrate: true, ...options });
    await store.init();
    return { store, close: async () => (await store.close(), await pool.end()) };
  }
  const store = postgresStore({ connectionString: DATABASE_URL, schema, migrate: true, poolConfig: { max: 2, application_name: 'siterest-limits' }, ...options });
  await store.init();
  return { store, close: () => store.close() };
}

const kinds: Kind[] = ['PGlite', 'app pool', 'own pool'];
const needsServer = (kind: Kind) => kind !== 'PGlite' && !DATABASE_URL;

describe.each(kinds)('limits on a store with %s', (kind) => {
  let admin: TestDatabase | undefined;
  const schemas: string[] = [];

  beforeAll(async () => {
    if (DATABASE_URL) admin = await openTestDatabase();
  });

  afterAll(async () => {
    if (admin) for (const schema of schemas) await dropSchema(admin, schema);
    await admin?.close();
  });

  const open = (options: Partial<PostgresStoreOptions>) => {
    const schema = uniqueSchema('limits');
    schemas.push(schema);
    return storeOn(kind, schema, options);
  };

  it.skipIf(needsServer(kind))('bounds the wait for a busy connection and answers 503, then serves again (needs DATABASE_URL for pools)', async () => {
    const { store, close } = await open({ connectionTimeout: 2_000 });
    try {
      const site = createSite({ store, logger: silentLogger });
      await site.ready();
      const held = gate();
      let holding!: () => void;
      const busy = new Promise<void>((resolve) => (holding = resolve));
      const holder = store.sql.transaction(async (tx) => {
        await tx.query('SELECT 1');
        holding();
        await held.wait;
      });
      await busy;
      const waited = await timed(store.events.list(all));
      expect(unavailable(waited.error)).toBe(true);
      expect(waited.ms).toBeLessThan(15_000);
      const answer = await site.handle({ method: 'GET', path: '/cal/events/v1/events', headers: {} });
      expect([answer.status, JSON.parse(answer.body).code]).toEqual([503, 'rest_service_unavailable']);
      held.open();
      await holder;
      expect((await store.events.list(all)).total).toBe(0);
    } finally {
      await close();
    }
  }, SLOW);

  it.skipIf(needsServer(kind))('rolls back a transaction that outlives its limit and frees its connection at once (needs DATABASE_URL for pools)', async () => {
    const { store, close } = await open({ transactionTimeout: 500 });
    try {
      const slow = timed(
        store.transaction(async (tx) => {
          await tx.options.set('first', 1);
          await sleep(4_000);
          await tx.options.set('second', 2);
        }),
      );
      const { ms, error } = await slow;
      expect(unavailable(error)).toBe(true);
      expect(ms).toBeLessThan(3_500);
      // The connection is free again while the abandoned work still sleeps.
      expect(await store.options.get('first')).toBeUndefined();
      await store.options.set('after', true);
      // When the abandoned work wakes up, its transaction is gone: nothing of it is written.
      await sleep(4_500);
      expect([await store.options.get('first'), await store.options.get('second'), await store.options.get('after')]).toEqual([undefined, undefined, true]);
    } finally {
      await close();
    }
  }, SLOW);

  it.skipIf(kind === 'PGlite' || !DATABASE_URL)(
    'keeps at most 257 statements prepared on a connection, however many texts requests make (needs a PostgreSQL server; PGlite is one connection that prepares nothing)',
    async () => {
      const { store, close } = await open({});
      try {
        for (let i = 0; i < 600; i++) expect(await store.sql.query<{ n: number }>(`SELECT ${i}::int AS n`, [], { prepare: true })).toEqual([{ n: i }]);
        for (let i = 0; i < 4; i++) {
          const [row] = await store.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_prepared_statements');
          expect(row!.n).toBeGreaterThan(0);
          expect(row!.n).toBeLessThanOrEqual(257);
        }
      } finally {
        await close();
      }
    },
    SLOW,
  );

  it.skipIf(kind === 'PGlite' || !DATABASE_URL)('stops a statement that runs too long, alone or in a transaction, and keeps working (needs a PostgreSQL server; PGlite cannot interrupt a statement)', async () => {
    const { store, close } = await open({ statementTimeout: 300 });
    try {
      expect(await store.sql.query('SHOW statement_timeout')).toEqual([{ statement_timeout: '300ms' }]);
      const alone = await timed(store.sql.query('SELECT pg_sleep(20)'));
      expect(unavailable(alone.error)).toBe(true);
      expect(alone.ms).toBeLessThan(10_000);
      const inside = await timed(store.sql.transaction((tx) => tx.query('SELECT pg_sleep(20)')));
      expect(unavailable(inside.error)).toBe(true);
      expect(inside.ms).toBeLessThan(10_000);
      // Migrations lift the limit for their own transaction only.
      expect(await store.sql.transaction((tx) => tx.query('SHOW statement_timeout'), { statementTimeout: 0 })).toEqual([{ statement_timeout: '0' }]);
      expect(await store.sql.query('SHOW statement_timeout')).toEqual([{ statement_timeout: '300ms' }]);
      const venue = await store.venues.create(newVenue({ title: 'Still here' }));
      expect((await store.venues.get(venue.id))?.title).toBe('Still here');
    } finally {
      await close();
    }
  }, SLOW);
});

describe.skipIf(!DATABASE_URL)('a PostgreSQL server behind a network that fails (needs DATABASE_URL)', () => {
  let db: TestDatabase;
  let proxy: TcpProxy;
  const schemas: string[] = [];

  beforeAll(async () => {
    db = await openTestDatabase();
    const target = new URL(DATABASE_URL!);
    proxy = new TcpProxy(target.hostname, Number(target.port || 5432));
    await proxy.start();
  });

  afterAll(async () => {
    await proxy?.stop();
    for (const schema of schemas) await dropSchema(db, schema);
    await db?.close();
  });

  const viaProxy = () => {
    const url = new URL(DATABASE_URL!);
    url.hostname = '127.0.0.1';
    url.port = String(proxy.port);
    return url.toString();
  };

  const open = async (options: Partial<PostgresStoreOptions> = {}) => {
    const schema = uniqueSchema('network');
    schemas.push(schema);
    const store = postgresStore({ connectionString: viaProxy(), schema, migrate: true, poolConfig: { max: 3 }, ...options });
    await store.init();
    return store;
  };

  it('answers "unavailable" (503) within its limits while the network is silent, and recovers when it is back', async () => {
    const store = await open({ statementTimeout: 500, connectionTimeout: 500, transactionTimeout: 2_000 });
    const site = createSite({ store, logger: silentLogger });
    await site.ready();
    await store.events.create(newEvent({ title: 'Before the cut' }));
    await store.events.list(all);
    proxy.blackhole();
    try {
      // Idle pooled connections, new connections and transactions: each gives up on its own limit.
      for (const request of [() => store.events.list(all), () => store.events.create(newEvent({ title: 'During the cut' })), () => store.options.set('x', 1)]) {
        const { ms, error } = await timed(request());
        expect(unavailable(error)).toBe(true);
        expect(ms).toBeLessThan(10_000);
      }
      const started = Date.now();
      const answer = await site.handle({ method: 'GET', path: '/cal/events/v1/events', headers: {} });
      expect([answer.status, JSON.parse(answer.body).code]).toEqual([503, 'rest_service_unavailable']);
      expect(Date.now() - started).toBeLessThan(10_000);
    } finally {
      proxy.restore();
    }
    const recovered = async () => {
      for (let attempt = 0; ; attempt++) {
        try {
          return await store.events.list(all);
        } catch (error) {
          if (attempt > 50) throw error;
          await sleep(200);
        }
      }
    };
    expect((await recovered()).items.map((e) => e.title)).toEqual(['Before the cut']);
    await store.close();
  }, SLOW);

  it('reports a write whose COMMIT answer was lost as saved when it committed', async () => {
    const store = await open();
    const cut = proxy.failAt('COMMIT', 'cut-after');
    const venue = await store.venues.create(newVenue({ title: 'Committed in the dark' }));
    await cut;
    expect(venue.title).toBe('Committed in the dark');
    expect((await store.venues.get(venue.id))?.title).toBe('Committed in the dark');
    await store.close();
  }, SLOW);

  it('reports a write whose COMMIT never reached the server as failed, and nothing is saved', async () => {
    const store = await open();
    const cut = proxy.failAt('COMMIT', 'cut-before');
    const { error } = await timed(store.venues.create(newVenue({ title: 'Never committed' })));
    await cut;
    expect(unavailable(error)).toBe(true);
    expect(await store.venues.findByTitle('Never committed')).toEqual([]);
    await store.close();
  }, SLOW);

  it('answers a create that was saved as saved even when the database goes away right after it', async () => {
    const store = await open({ connectionTimeout: 500 });
    // The version bump that follows every write is the first statement to fail.
    const cut = proxy.failAt('nextval', 'cut-before');
    const stopped = cut.then(() => proxy.stop());
    const venue = await store.venues.create(newVenue({ title: 'Saved before the outage' }));
    await stopped;
    expect(venue.title).toBe('Saved before the outage');
    await proxy.start();
    expect(await db.admin(`SELECT title FROM "${store.schema}".posts WHERE id = $1`, [venue.id])).toEqual([{ title: 'Saved before the outage' }]);
    await store.close();
  }, SLOW);
});
