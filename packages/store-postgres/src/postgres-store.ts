import { createRequire } from 'node:module';
import type { Pool, PoolConfig } from 'pg';
import type { Logger } from '@siterest/core';
import type { PGliteInterface } from '@electric-sql/pglite';
import type { PGliteDatabase, PgPool, PgPoolSettings } from './drivers.js';
import type { FirstIds } from './first-ids.js';
import { Notifications } from './notifications.js';
import type { SqlClient } from './sql/client.js';
import { channelFor } from './sql/identifiers.js';
import { PgSqlClient } from './sql/pg-client.js';
import { checkTimeout, DEFAULT_TIMEOUTS, type Timeouts } from './sql/limits.js';
import { PGliteSqlClient } from './sql/pglite-client.js';
import { PostgresStore } from './store.js';
import { DEFAULT_SCHEMA, tablesIn } from './tables.js';

export interface PostgresStoreOptions {
  /** The app's node-postgres pool; the store never ends it. */
  pool?: PgPool;
  /** A PGlite instance (created with `extensions: { pg_trgm }`, see openPGlite); the store never closes it. */
  pglite?: PGliteDatabase;
  /** Or let the store make (and end, on close) its own node-postgres pool. */
  connectionString?: string;
  /** Settings for that pool. */
  poolConfig?: PgPoolSettings;
  /** Where the tables live (default `siterest`, created by the migrations): lower-case letters, digits and `_`. */
  schema?: string;
  /** Where the id sequences start, as the memory store's option. Applied by migrate() and init(); sequences only move up. */
  firstIds?: FirstIds;
  /** `init()` applies pending migrations instead of refusing to start on an old schema. */
  migrate?: boolean;
  /** Where missing extensions (pg_trgm) are created, default `public`. */
  extensionSchema?: string;
  /**
   * Longest a statement may run, in ms (default 5000; 0 turns it off). PostgreSQL's `statement_timeout`: a startup
   * parameter of the store's own pool, set once per connection of a pool you pass in. Also the client-side limit
   * (plus 1 s) that catches a database that stopped answering. PGlite cannot interrupt a running statement.
   */
  statementTimeout?: number;
  /** Longest wait for a connection, in ms (default 5000, or the pool's `connectionTimeoutMillis`): connecting, or queueing for a busy pool or PGlite. */
  connectionTimeout?: number;
  /** Longest a transaction may stay open, in ms (default 15000; 0 turns it off); after it, it is rolled back. */
  transactionTimeout?: number;
  /**
   * How often, in ms, the connection that listens for other instances' changes is checked (default 30000; 0 turns
   * it off): when it does not answer `SELECT 1` within the statement timeout (plus 1 s), it is dropped, a new one
   * listens and the caches are cleared, as after any lost connection. PGlite has no such connection.
   */
  listenerHeartbeat?: number;
  /**
   * Where the store reports what failed in work no request waits for: today the background count of a common search
   * (see the README). Give it the site's logger (`createSite({ logger })`); unset, such failures are not reported.
   */
  logger?: Pick<Logger, 'warn'>;
}

/** Fail fast when the server is away instead of queueing requests for the OS's TCP timeout. */
const POOL_DEFAULTS: PoolConfig = {
  keepAlive: true,
  keepAliveInitialDelayMillis: 10_000,
  idleTimeoutMillis: 30_000,
  application_name: 'siterest',
};

function timeoutsFor(options: PostgresStoreOptions): Timeouts {
  const poolOptions = (options.pool as { options?: PoolConfig } | undefined)?.options;
  return {
    statement: checkTimeout(options.statementTimeout ?? (options.poolConfig?.statement_timeout || undefined) ?? DEFAULT_TIMEOUTS.statement, 'statementTimeout'),
    connection: checkTimeout(
      options.connectionTimeout ?? options.poolConfig?.connectionTimeoutMillis ?? poolOptions?.connectionTimeoutMillis ?? DEFAULT_TIMEOUTS.connection,
      'connectionTimeout',
    ),
    transaction: checkTimeout(options.transactionTimeout ?? DEFAULT_TIMEOUTS.transaction, 'transactionTimeout'),
    listenerHeartbeat: checkTimeout(options.listenerHeartbeat ?? DEFAULT_TIMEOUTS.listenerHeartbeat, 'listenerHeartbeat'),
  };
}

function clientFor(options: PostgresStoreOptions): SqlClient {
  const given = [options.pool, options.pglite, options.connectionString].filter((x) => x !== undefined);
  if (given.length !== 1) throw new Error('postgresStore needs exactly one of `pool`, `pglite` or `connectionString`.');
  const timeouts = timeoutsFor(options);
  // The driver types above describe what these are; the clients are written against the drivers' own types.
  if (options.pool) return new PgSqlClient(options.pool as unknown as Pool, false, timeouts);
  if (options.pglite) return new PGliteSqlClient(options.pglite as unknown as PGliteInterface, false, timeouts);
  const pool = ownPool({
    ...POOL_DEFAULTS,
    ...options.poolConfig,
    connectionString: options.connectionString,
    connectionTimeoutMillis: timeouts.connection,
    // Startup parameters: the server enforces them on every session of the pool, at no cost per statement.
    statement_timeout: timeouts.statement,
    idle_in_transaction_session_timeout: timeouts.transaction,
  } as PoolConfig);
  return new PgSqlClient(pool, true, timeouts);
}

/** pg is an optional peer dependency: it is loaded only when the store makes its own pool. */
function ownPool(config: PoolConfig): Pool {
  let pg: typeof import('pg');
  try {
    pg = createRequire(import.meta.url)('pg') as typeof import('pg');
  } catch (error) {
    throw new Error('postgresStore({ connectionString }) needs the node-postgres driver: install the `pg` package.', { cause: error });
  }
  return new pg.Pool(config);
}

/** A SiteStore keeping everything in PostgreSQL (a server through node-postgres, or PGlite). */
export function postgresStore(options: PostgresStoreOptions): PostgresStore {
  const tables = tablesIn(options.schema ?? DEFAULT_SCHEMA);
  const sql = clientFor(options);
  return new PostgresStore(
    sql,
    tables,
    {
      firstIds: options.firstIds ?? {},
      migrate: options.migrate ?? false,
      migrateOptions: options.extensionSchema ? { extensionSchema: options.extensionSchema } : {},
      ...(options.logger ? { logger: options.logger } : {}),
    },
    new Notifications(sql, channelFor(tables.schema)),
  );
}

/** A PGlite database with the extensions the store needs; in memory unless `dataDir` names a directory. */
export async function openPGlite(dataDir?: string): Promise<PGliteDatabase> {
  const [{ PGlite }, { pg_trgm }] = await Promise.all([import('@electric-sql/pglite'), import('@electric-sql/pglite/contrib/pg_trgm')]);
  return PGlite.create({ ...(dataDir ? { dataDir } : {}), extensions: { pg_trgm } });
}
