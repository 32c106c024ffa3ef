/**
 * What the store needs of the database drivers, declared here so that the package's types need neither `pg` (nor
 * `@types/pg`) nor PGlite: both are optional peers, and an app installs the one it uses. A node-postgres `Pool`
 * and a PGlite instance are what these describe.
 */

/** A node-postgres `Pool` (`new pg.Pool(…)`). */
export interface PgPool {
  query(text: string, values?: any[]): Promise<{ rows: any[] }>;
  connect(): Promise<unknown>;
  on(event: 'error', listener: (error: Error) => void): unknown;
  off(event: 'error', listener: (error: Error) => void): unknown;
  end(): Promise<void>;
}

/** Settings of the pool the store makes from a connection string (node-postgres `PoolConfig`). */
export interface PgPoolSettings {
  max?: number;
  connectionTimeoutMillis?: number;
  idleTimeoutMillis?: number | null;
  application_name?: string;
  statement_timeout?: number | false;
  query_timeout?: number | false;
  keepAlive?: boolean;
  ssl?: unknown;
  [setting: string]: unknown;
}

/** A statement runner of PGlite: the instance itself, or a transaction. */
interface PGliteQueries {
  query<T>(query: string, params?: any[]): Promise<{ rows: T[] }>;
}

/** A PGlite instance (`await PGlite.create({ extensions: { pg_trgm } })`, or `openPGlite()`). */
export interface PGliteDatabase extends PGliteQueries {
  transaction<T>(callback: (tx: PGliteQueries) => Promise<T>): Promise<T>;
  listen(channel: string, callback: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
  readonly closed: boolean;
}
