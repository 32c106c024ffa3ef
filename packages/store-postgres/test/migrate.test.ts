import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newEvent } from '@siterest/core/testing';
import { LATEST_VERSION, postgresStore } from '../src/index.js';
import { MIGRATIONS } from '../src/migrations/index.js';
import { DATABASE_URL, dropSchema, freshDatabase, openTestDatabase, uniqueSchema, type TestDatabase } from './support/database.js';

/** Every migration's label, in order (`001_initial`, …). */
const ALL = MIGRATIONS.map((m) => `${String(m.version).padStart(3, '0')}_${m.name}`);

let db: TestDatabase;
const schemas: string[] = [];
const freshSchema = () => {
  const schema = uniqueSchema('migrate');
  schemas.push(schema);
  return schema;
};

beforeAll(async () => {
  db = await openTestDatabase();
});

afterAll(async () => {
  for (const schema of schemas) await dropSchema(db, schema);
  await db?.close();
});

/** How many times `events` of the schema was vacuumed by hand (VACUUM, not autovacuum). */
async function vacuumCount(schema: string): Promise<number> {
  await db.admin('SELECT pg_stat_clear_snapshot()');
  const [row] = await db.admin('SELECT vacuum_count::int AS n FROM pg_stat_user_tables WHERE schemaname = $1 AND relname = $2', [schema, 'events']);
  return Number(row?.n);
}

describe('migrations', () => {
  it('applies every migration once; running again changes nothing', async () => {
    const store = postgresStore({ ...db.connection(), schema: freshSchema() });
    expect(await store.migrate()).toEqual({ version: LATEST_VERSION, applied: ALL });
    expect(await store.migrate()).toEqual({ version: LATEST_VERSION, applied: [] });
    const rows = await db.admin(`SELECT version, name FROM "${store.schema}".siterest_migrations`);
    expect(rows).toEqual(MIGRATIONS.map((m) => ({ version: m.version, name: m.name })));
    await store.close();
  });

  it('vacuums and analyses the tables a migration rewrote, once it has committed', async () => {
    const store = postgresStore({ ...db.connection(), schema: freshSchema() });
    await store.migrate();
    for (let i = 0; i < 40; i++) await store.events.create(newEvent({ title: `Event ${i}` }));
    // Every row rewritten, as a backfill leaves them: until a vacuum no page of events is all-visible, and every
    // index-only scan of it reads the table too.
    await db.admin(`UPDATE "${store.schema}".events SET located = located`);
    const visible = async () =>
      (await db.admin(`SELECT relpages::int AS pages, relallvisible::int AS visible FROM pg_class WHERE oid = '"${store.schema}".events'::regclass`))[0]!;
    expect((await visible()).visible).toBe(0);
    // Migration 66 once more, as an upgrade from 65 applies it: it rewrites events' wrong located flags.
    await db.admin(`DELETE FROM "${store.schema}".siterest_migrations WHERE version = 66`);
    expect(await store.migrate()).toEqual({ version: LATEST_VERSION, applied: ['066_event_located_lock'] });
    const after = await visible();
    expect(after.pages).toBeGreaterThan(0);
    expect(after.visible).toBe(after.pages);
    expect(await db.admin(`SELECT table_name FROM "${store.schema}".siterest_migration_vacuums`)).toEqual([]);

    // A vacuum the migrations' transaction wrote down and no call finished (a process stopped during it): the next
    // call vacuums the table although it applies nothing.
    const vacuumed = await vacuumCount(store.schema);
    await db.admin(`INSERT INTO "${store.schema}".siterest_migration_vacuums (table_name) VALUES ('events'), ('posts; DROP TABLE events')`);
    expect(await store.migrate()).toEqual({ version: LATEST_VERSION, applied: [] });
    expect(await vacuumCount(store.schema)).toBe(vacuumed + 1);
    // A name no migration gives is struck off, never put into SQL.
    expect(await db.admin(`SELECT table_name FROM "${store.schema}".siterest_migration_vacuums`)).toEqual([]);
    expect((await store.events.list({ statuses: 'any', orderBy: 'start', offset: 0, limit: 100 })).total).toBe(40);
    await store.close();
  });

  it.skipIf(!DATABASE_URL)('keeps a vacuum that failed for the next migrate(), and says the migrations are committed (needs a PostgreSQL server: set DATABASE_URL)', async () => {
    const store = postgresStore({ ...db.connection(), schema: freshSchema() });
    await store.migrate();
    // Migration 66 again (it vacuums events), and event_search written down as a vacuum left over: it comes first.
    await db.admin(`DELETE FROM "${store.schema}".siterest_migrations WHERE version = 66`);
    await db.admin(`INSERT INTO "${store.schema}".siterest_migration_vacuums (table_name) VALUES ('event_search')`);
    // That vacuum waits behind a lock another session holds on event_search (66 does not lock it), and its session
    // is ended there.
    const holder = new pg.Client({ connectionString: DATABASE_URL });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query(`LOCK TABLE "${store.schema}".event_search IN SHARE UPDATE EXCLUSIVE MODE`);
      const outcome = store.migrate().then(() => 'resolved', (error: Error) => error.message);
      let ended = false;
      for (let waited = 0; waited < 400 && !ended; waited++) {
        const [vacuuming] = await db.admin(`SELECT pid FROM pg_stat_activity WHERE query = $1`, [`VACUUM (ANALYZE) "${store.schema}"."event_search"`]);
        if (vacuuming) ended = (await db.admin('SELECT pg_terminate_backend($1) AS ended', [vacuuming.pid]))[0]!.ended === true;
        else await new Promise((resolve) => setTimeout(resolve, 25));
      }
      expect(ended).toBe(true);
      expect(await outcome).toMatch(
        new RegExp(`"${store.schema}" is migrated to version ${LATEST_VERSION} \\(066_event_located_lock\\), but vacuuming its table "event_search" afterwards failed: .*the next migrate\\(\\) vacuums what is left`),
      );
    } finally {
      await holder.end();
    }
    expect(await db.admin(`SELECT version FROM "${store.schema}".siterest_migrations WHERE version = 66`)).toEqual([{ version: 66 }]);
    // Neither is struck off: events waits behind the vacuum that failed.
    expect(await db.admin(`SELECT table_name FROM "${store.schema}".siterest_migration_vacuums ORDER BY table_name`)).toEqual([
      { table_name: 'event_search' },
      { table_name: 'events' },
    ]);
    const vacuumed = await vacuumCount(store.schema);
    expect(await store.migrate()).toEqual({ version: LATEST_VERSION, applied: [] });
    expect(await vacuumCount(store.schema)).toBe(vacuumed + 1);
    expect(await db.admin(`SELECT table_name FROM "${store.schema}".siterest_migration_vacuums`)).toEqual([]);
    await store.close();
  });

  it.skipIf(!DATABASE_URL)('lifts the statement limit for a maintenance statement alone (needs a PostgreSQL server: set DATABASE_URL)', async () => {
    // One connection, so the statements after the VACUUM run where it ran.
    const store = postgresStore({ connectionString: DATABASE_URL, schema: freshSchema(), statementTimeout: 1234, poolConfig: { max: 1 } });
    await store.migrate();
    await store.sql.maintain(`VACUUM (ANALYZE) "${store.schema}".events`);
    expect(await store.sql.query('SHOW statement_timeout')).toEqual([{ statement_timeout: '1234ms' }]);
    await expect(store.sql.transaction((tx) => tx.maintain('VACUUM'))).rejects.toThrow(/cannot run inside a transaction/);
    await store.close();
  });

  it('lets two instances migrate the same schema at the same moment (advisory lock)', async () => {
    const schema = freshSchema();
    const a = postgresStore({ ...db.connection(), schema });
    const b = postgresStore({ ...db.connection(), schema });
    const results = await Promise.all([a.migrate(), b.migrate(), a.migrate()]);
    expect(results.map((r) => r.version)).toEqual([LATEST_VERSION, LATEST_VERSION, LATEST_VERSION]);
    expect(results.flatMap((r) => r.applied)).toEqual(ALL);
    const created = await b.events.create(newEvent({ title: 'After concurrent migrations' }));
    expect((await a.events.get(created.id))?.title).toBe('After concurrent migrations');
    await Promise.all([a.close(), b.close()]);
  });

  it('refuses to start on an unmigrated schema with a clear message, or migrates when asked', async () => {
    const schema = freshSchema();
    const strict = postgresStore({ ...db.connection(), schema });
    await expect(strict.init()).rejects.toThrow(new RegExp(`version 0, siterest needs ${LATEST_VERSION}.*store\\.migrate\\(\\).*siterest-migrate`, 's'));
    const eager = postgresStore({ ...db.connection(), schema, migrate: true });
    await eager.init();
    await strict.init();
    await Promise.all([strict.close(), eager.close()]);
  });

  it('starts the id sequences at firstIds and never moves them back', async () => {
    const schema = freshSchema();
    const store = postgresStore({ ...db.connection(), schema, firstIds: { post: 5000, term: 300, user: 40 } });
    await store.migrate();
    expect((await store.events.create(newEvent())).id).toBe(5000);
    expect((await store.terms.create({ taxonomy: 'post_tag', name: 'A', slug: 'a', description: '', parentId: 0 })).id).toBe(300);
    expect((await store.users.create({ login: 'a', email: 'a@example.com', displayName: 'A', nicename: 'a', url: '', registered: '2026-01-01 00:00:00', roles: [] })).id).toBe(40);
    const lower = postgresStore({ ...db.connection(), schema, firstIds: { post: 10 } });
    await lower.init();
    expect((await lower.events.create(newEvent())).id).toBe(5001);
    await Promise.all([store.close(), lower.close()]);
  });
});

describe('a database the app already uses', () => {
  it('gets siterest\'s tables in a schema of their own ("siterest"), next to the app\'s own users and options', async () => {
    const fresh = await freshDatabase();
    try {
      await fresh.admin('CREATE TABLE public.users (id serial PRIMARY KEY, email text NOT NULL)');
      await fresh.admin('CREATE TABLE public.options (key text PRIMARY KEY, value text)');
      await fresh.admin("INSERT INTO public.users (email) VALUES ('owner@app.example')");
      const store = postgresStore({ ...fresh.connection });
      expect(store.schema).toBe('siterest');
      expect(await store.migrate()).toEqual({ version: LATEST_VERSION, applied: ALL });
      await store.users.create({ login: 'editor', email: 'e@example.com', displayName: 'E', nicename: 'e', url: '', registered: '2026-01-01 00:00:00', roles: ['editor'] });
      expect(await fresh.admin('SELECT email FROM public.users')).toEqual([{ email: 'owner@app.example' }]);
      expect(await fresh.admin('SELECT login FROM siterest.users')).toEqual([{ login: 'editor' }]);
      await store.close();

      // Asked to share the app's schema, it says what is in the way and what to do, and creates nothing.
      const shared = postgresStore({ ...fresh.connection, schema: 'public' });
      await expect(shared.migrate()).rejects.toThrow(/schema "public" already holds "options", "users".*schema: 'another_name'.*--schema another_name/s);
      expect(await fresh.admin("SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = 'public'")).toEqual([{ n: 2 }]);
      await shared.close();
    } finally {
      await fresh.drop();
    }
  });
});

describe('siterest-migrate', () => {
  const run = promisify(execFile);
  const cli = fileURLToPath(new URL('../src/cli.ts', import.meta.url));
  const tsx = fileURLToPath(new URL('../../../node_modules/.bin/tsx', import.meta.url));
  const migrateCli = (env: NodeJS.ProcessEnv, ...args: string[]) => run(tsx, ['--conditions=source', cli, ...args], { env });

  it('explains what it needs when DATABASE_URL is missing', async () => {
    const { DATABASE_URL: _, ...env } = process.env;
    await expect(migrateCli(env)).rejects.toMatchObject({ code: 2, stderr: expect.stringMatching(/set DATABASE_URL/) });
  });

  it.skipIf(!DATABASE_URL)('migrates DATABASE_URL from the command line, idempotently (needs a PostgreSQL server: set DATABASE_URL)', async () => {
    const schema = freshSchema();
    const env = { ...process.env, DATABASE_URL };
    const first = await migrateCli(env, '--schema', schema);
    expect(first.stdout).toMatch(new RegExp(`schema "${schema}" migrated to version ${LATEST_VERSION} \\(${ALL.join(', ')}\\)`));
    const second = await migrateCli(env, '--schema', schema);
    expect(second.stdout).toMatch(new RegExp(`is up to date \\(version ${LATEST_VERSION}\\)`));
  });
});
