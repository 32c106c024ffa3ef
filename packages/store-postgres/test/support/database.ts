import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { openPGlite, postgresStore, type PostgresStore, type PostgresStoreOptions } from '../../src/index.js';

/** Tests run on the server named by DATABASE_URL, else on an in-memory PGlite. */
export const DATABASE_URL = process.env.DATABASE_URL;

export type Connection = Pick<PostgresStoreOptions, 'pool' | 'pglite'>;

export interface TestDatabase {
  readonly kind: 'postgres' | 'pglite';
  /**
   * What a store is given: a pool of its own, or the shared PGlite. `connectionTimeout` is the pool's longest wait
   * for a connection (5 s, the store's default); the store is given the same, since it keeps its own deadline.
   */
  connection(applicationName?: string, connectionTimeout?: number): Connection & { connectionTimeout: number };
  /** Statements outside any store (cleanup, pg_terminate_backend). */
  admin(text: string, params?: unknown[]): Promise<Array<Record<string, unknown>>>;
  close(): Promise<void>;
}

export const uniqueSchema = (label = 'test') => `siterest_${label}_${randomBytes(5).toString('hex')}`;

export async function openTestDatabase(): Promise<TestDatabase> {
  if (!DATABASE_URL) {
    const pglite = await openPGlite();
    return {
      kind: 'pglite',
      connection: (_applicationName, connectionTimeout = 5_000) => ({ pglite, connectionTimeout }),
      admin: async (text, params) => (await pglite.query<Record<string, unknown>>(text, params)).rows,
      close: () => pglite.close(),
    };
  }
  const admin = new pg.Pool({ connectionString: DATABASE_URL, max: 2, application_name: 'siterest-test-admin' });
  const pools: pg.Pool[] = [];
  return {
    kind: 'postgres',
    connection: (applicationName = 'siterest-test', connectionTimeout = 5_000) => {
      const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 10, connectionTimeoutMillis: connectionTimeout, application_name: applicationName });
      pools.push(pool);
      return { pool, connectionTimeout };
    },
    admin: async (text, params) => (await admin.query(text, params)).rows,
    close: async () => {
      await Promise.all(pools.map((p) => p.end()));
      await admin.end();
    },
  };
}

/**
 * A connection with generous limits, for tests about integrity under many concurrent writes: a loaded test machine
 * must not turn a slow turn at the pool, a lock wait or a long transaction into a refusal. The pool's own wait is
 * lifted too, since a pool given to a store keeps its own deadline.
 */
export function patientConnection(db: TestDatabase, applicationName?: string) {
  return { ...db.connection(applicationName, 120_000), statementTimeout: 60_000, transactionTimeout: 120_000 };
}

export async function dropSchema(db: TestDatabase, schema: string): Promise<void> {
  await db.admin(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
}

/** Empties every table of the schema but the migrations and restarts its id sequences: a fresh store in milliseconds. */
export async function emptySchema(db: TestDatabase, schema: string): Promise<void> {
  const tables = await db.admin(
    `SELECT format('%I.%I', schemaname, tablename) AS name FROM pg_tables WHERE schemaname = $1 AND tablename <> 'siterest_migrations'`,
    [schema],
  );
  await db.admin(`TRUNCATE ${tables.map((t) => t.name).join(', ')} RESTART IDENTITY CASCADE`);
}

/**
 * A migrated store on a schema of its own for one test file: opened before the file's tests, closed and
 * dropped after them. The returned object's `store`, `db` and `schema` are set once `beforeAll` ran.
 */
export function useMigratedStore(label: string): { store: PostgresStore; db: TestDatabase; schema: string } {
  const handle = { schema: uniqueSchema(label) } as { store: PostgresStore; db: TestDatabase; schema: string };
  beforeAll(async () => {
    handle.db = await openTestDatabase();
    handle.store = postgresStore({ ...handle.db.connection(), schema: handle.schema });
    await handle.store.migrate();
  });
  afterAll(async () => {
    await handle.store?.close();
    if (handle.db) {
      await dropSchema(handle.db, handle.schema);
      await handle.db.close();
    }
  });
  return handle;
}

/**
 * Two store instances on one migrated schema of its own for one test file, as two processes of an app would open
 * it (the second for concurrent writes and cross-instance reads): opened before the file's tests, closed and
 * dropped after them; with `emptiedBeforeEach`, its tables are emptied before each test. `connectionTimeout`
 * (5 s by default, the store's own) is how long each instance waits for one of its ten connections. The returned
 * object's fields other than `schema` are set once `beforeAll` ran.
 */
export function useSharedSchema(
  label: string,
  options: { emptiedBeforeEach?: boolean; connectionTimeout?: number } = {},
): { store: PostgresStore; other: PostgresStore; db: TestDatabase; schema: string } {
  const handle = { schema: uniqueSchema(label) } as { store: PostgresStore; other: PostgresStore; db: TestDatabase; schema: string };
  beforeAll(async () => {
    handle.db = await openTestDatabase();
    handle.store = postgresStore({ ...handle.db.connection('siterest-test-a', options.connectionTimeout), schema: handle.schema });
    handle.other = postgresStore({ ...handle.db.connection('siterest-test-b', options.connectionTimeout), schema: handle.schema });
    await handle.store.migrate();
  });
  // Each test from empty tables (see emptySchema), when asked.
  if (options.emptiedBeforeEach) beforeEach(() => emptySchema(handle.db, handle.schema));
  afterAll(async () => {
    await handle.store?.close();
    await handle.other?.close();
    if (handle.db) {
      await dropSchema(handle.db, handle.schema);
      await handle.db.close();
    }
  });
  return handle;
}

/**
 * A database of its own, for tests of what lives outside one schema (the default schema, an app's own tables):
 * a new database on the server named by DATABASE_URL, or a new in-memory PGlite.
 */
export async function freshDatabase(): Promise<{ connection: Connection; admin: TestDatabase['admin']; drop(): Promise<void> }> {
  if (!DATABASE_URL) {
    const pglite = await openPGlite();
    return {
      connection: { pglite },
      admin: async (text, params) => (await pglite.query<Record<string, unknown>>(text, params)).rows,
      drop: () => pglite.close(),
    };
  }
  const name = `siterest_fresh_${randomBytes(5).toString('hex')}`;
  const server = new pg.Client({ connectionString: DATABASE_URL });
  await server.connect();
  await server.query(`CREATE DATABASE ${name}`);
  await server.end();
  const url = new URL(DATABASE_URL);
  url.pathname = `/${name}`;
  const pool = new pg.Pool({ connectionString: url.toString(), max: 5 });
  return {
    connection: { pool },
    admin: async (text, params) => (await pool.query(text, params)).rows,
    async drop() {
      await pool.end();
      const client = new pg.Client({ connectionString: DATABASE_URL });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}
