/**
 * The one query interface the store is written against. node-postgres and PGlite each implement it, so every
 * repository, the migrations and the notifications exist once.
 */
import type { TransactionOptions } from './limits.js';

export type Row = Record<string, unknown>;

export interface SqlClient {
  /**
   * One parameterised statement; rows as the driver parses them. Driver failures arrive as StoreError when they
   * have a meaning. Bounded by the store's timeouts: waiting for a connection, and running.
   */
  query<T extends Row = Row>(text: string, params?: readonly unknown[], options?: QueryOptions): Promise<T[]>;
  /**
   * Runs `work` in one transaction on one connection; commits when it resolves, rolls back when it throws or
   * outlives the transaction timeout. Called on a client that is already inside a transaction, it joins that
   * transaction (and `options` are ignored).
   */
  transaction<T>(work: (client: SqlClient) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /**
   * A maintenance statement that cannot run in a transaction (VACUUM), on a connection of its own, without a
   * statement limit: it may take minutes on a big table. Refused on a client bound to a transaction.
   */
  maintain(text: string): Promise<void>;
  /** Whether this client is bound to an open transaction. */
  readonly inTransaction: boolean;
  /**
   * Receives NOTIFY messages on `channel` (a plain lower-case identifier) until the returned function is called.
   * `onReconnect` runs each time the listening connection had to be re-established: messages sent meanwhile are lost.
   */
  listen(channel: string, onMessage: (payload: string) => void, onReconnect?: () => void): Listening;
  /** Releases what the client opened itself (never a pool or database handed in by the app). */
  close(): Promise<void>;
}

export interface QueryOptions {
  /**
   * Keep the statement prepared on each connection (a named statement, named after its text), so that a hot
   * statement is parsed and planned once per connection. Only for statements of a bounded set of texts (never
   * text that grows with input, such as one condition per search word). PGlite ignores it.
   */
  prepare?: boolean;
}

export interface Listening {
  /** Resolves once LISTEN is in effect (retries until the database answers). */
  readonly ready: Promise<void>;
  stop(): Promise<void>;
}
