import type { Pool, PoolClient, QueryResult } from 'pg';
import { isStoreError, StoreError } from '@siterest/core';
import { createHash } from 'node:crypto';
import type { Listening, QueryOptions, Row, SqlClient } from './client.js';
import { isConnectionError, isRetryableConflict, toStoreError } from './errors.js';
import { checkTimeout, CLIENT_GRACE_MS, sleep, withDeadline, type Timeouts, type TransactionOptions } from './limits.js';
import { PgListener } from './pg-listener.js';
import { bindable } from './params.js';

/** Ignores errors of idle pooled connections (server restart, pg_terminate_backend): the pool drops them and reconnects on demand. */
const ignore = (): void => undefined;

/**
 * node-postgres: each statement on a connection checked out of the pool, transactions on one connection.
 *
 * Every wait and statement is bounded (see Timeouts): the wait for a connection (whatever the pool's own
 * setting), each statement on the server (`statement_timeout`, set as a startup parameter on the store's own
 * pool and once per connection on an app's pool) and on the client a little later (a silent network cut never
 * answers), and each transaction as a whole. A connection that timed out or broke is destroyed, never reused.
 */
export class PgSqlClient implements SqlClient {
  readonly inTransaction = false;
  private readonly listener: PgListener;
  /** Connections of an app's pool whose session statement_timeout the store has set. */
  private readonly prepared = new WeakSet<PoolClient>();

  constructor(
    private readonly pool: Pool,
    private readonly ownsPool: boolean,
    readonly timeouts: Timeouts,
  ) {
    // Without a listener an idle connection's error would crash the process.
    pool.on('error', ignore);
    this.listener = new PgListener(pool, timeouts);
  }

  async query<T extends Row = Row>(text: string, params: readonly unknown[] = [], options?: QueryOptions): Promise<T[]> {
    const client = await this.acquire();
    let broken: Error | undefined;
    try {
      return (await this.run<T>(client, text, params, this.timeouts.statement, options?.prepare)).rows;
    } catch (error) {
      if (isConnectionError(error)) broken = error as Error;
      throw toStoreError(error);
    } finally {
      release(client, broken);
    }
  }

  async transaction<T>(work: (client: SqlClient) => Promise<T>, options: TransactionOptions = {}): Promise<T> {
    // A number checked here, never input: it is written into the SET LOCAL below.
    const statement = checkTimeout(options.statementTimeout ?? this.timeouts.statement, 'statementTimeout');
    const client = await this.acquire();
    const tx = new PgTransactionClient(client, this, statement);
    let broken: Error | undefined;
    let committing = false;
    try {
      // SET LOCAL rides on BEGIN (one round trip) when this transaction's limits differ from the session's.
      const begin = ['BEGIN'];
      if (statement !== this.timeouts.statement) begin.push(`SET LOCAL statement_timeout = ${statement}`);
      if (options.timeout === 0) begin.push('SET LOCAL idle_in_transaction_session_timeout = 0');
      await this.run(client, begin.join('; '), [], statement);
      const result = await withDeadline(work(tx), options.timeout ?? this.timeouts.transaction, 'a transaction', () => {
        // The work may be in the middle of a statement: the connection is destroyed, which rolls back.
        broken = new Error('The transaction took too long and was abandoned.');
        tx.end();
      });
      // Known before COMMIT, so that a COMMIT whose answer is lost can be checked (see commitOutcome).
      const [assigned] = (await this.run<{ xid: string | null }>(client, 'SELECT txid_current_if_assigned()::text AS xid', [], statement)).rows;
      committing = true;
      try {
        await this.run(client, 'COMMIT', [], statement);
      } catch (error) {
        if (!isConnectionError(error)) throw error;
        broken = error as Error;
        // A transaction that wrote nothing has nothing to lose; one that wrote may have committed all the same.
        const outcome = assigned?.xid ? await this.commitOutcome(assigned.xid) : 'aborted';
        if (outcome === 'committed') return result;
        throw new StoreError(
          'unavailable',
          outcome === 'aborted'
            ? `The connection broke before the transaction committed; nothing was saved: ${(error as Error).message}`
            : `The connection broke while the transaction committed and the database could not be asked whether it did: ${(error as Error).message}`,
          { cause: error },
        );
      }
      return result;
    } catch (error) {
      // A deadlock or serialization failure leaves the connection fine: rolled back, it goes back to the pool.
      if (!broken && !isRetryableConflict(error) && (isStoreError(error, 'unavailable') || isConnectionError(error))) broken = error as Error;
      if (!broken && !committing) {
        await this.run(client, 'ROLLBACK', [], statement).catch((rollbackError: Error) => {
          broken = rollbackError;
        });
      }
      throw toStoreError(error);
    } finally {
      tx.end();
      // Releasing with an error destroys the connection instead of handing a dead (or busy) one to the next request.
      release(client, broken);
    }
  }

  async maintain(text: string): Promise<void> {
    const client = await this.acquire();
    let broken: Error | undefined;
    try {
      // The session's limit is lifted for this statement alone, then set back as the store keeps it.
      await this.run(client, `SELECT set_config('statement_timeout', '0', false)`, [], this.timeouts.statement);
      await this.run(client, text, [], 0);
      await this.run(client, `SELECT set_config('statement_timeout', $1, false)`, [`${this.timeouts.statement}ms`], this.timeouts.statement);
    } catch (error) {
      // Its limit may be the lifted one: never handed to another request.
      broken = error as Error;
      throw toStoreError(error);
    } finally {
      release(client, broken);
    }
  }

  listen(channel: string, onMessage: (payload: string) => void, onReconnect?: () => void): Listening {
    return this.listener.listen(channel, onMessage, onReconnect);
  }

  async close(): Promise<void> {
    await this.listener.close();
    this.pool.off('error', ignore);
    if (this.ownsPool) await this.pool.end();
  }

  /** One statement on a checked-out connection, abandoned client-side a little after the server's own limit. */
  run<T extends Row = Row>(client: PoolClient, text: string, params: readonly unknown[], statementTimeout: number, prepare = false): Promise<QueryResult<T>> {
    let name: string | undefined;
    if (prepare) {
      name = statementName(text);
      let names = preparedOn.get(client);
      if (!names) preparedOn.set(client, (names = new Set()));
      names.add(name);
    }
    return client.query<T>({
      text,
      ...(name ? { name } : {}),
      values: bindable(params),
      ...(statementTimeout ? { query_timeout: statementTimeout + CLIENT_GRACE_MS } : {}),
    });
  }

  /** A connection from the pool within the connection timeout, whatever the pool's own setting; ready for the store's limits. */
  private async acquire(): Promise<PoolClient> {
    const pending = this.pool.connect();
    let client: PoolClient;
    try {
      client = await withDeadline(pending, this.timeouts.connection, 'waiting for a database connection', () => {
        // The connection may still come: it goes straight back.
        pending.then((late) => late.release(), ignore);
      });
    } catch (error) {
      throw toStoreError(error);
    }
    client.on('error', ignore);
    if (this.ownsPool || !this.timeouts.statement || this.prepared.has(client)) return client;
    try {
      await this.run(client, `SELECT set_config('statement_timeout', $1, false)`, [`${this.timeouts.statement}ms`], this.timeouts.statement);
      this.prepared.add(client);
      return client;
    } catch (error) {
      release(client, error as Error);
      throw toStoreError(error);
    }
  }

  /**
   * Whether transaction `xid` committed, asked on another connection after the one that sent COMMIT broke:
   * `unknown` when the database cannot be asked within the connection timeout (or no longer remembers).
   */
  private async commitOutcome(xid: string): Promise<'committed' | 'aborted' | 'unknown'> {
    const deadline = Date.now() + Math.max(this.timeouts.connection, 1_000);
    for (;;) {
      try {
        const [row] = await this.query<{ status: string | null }>('SELECT txid_status($1::bigint) AS status', [xid]);
        if (row?.status === 'committed') return 'committed';
        if (row?.status === 'aborted') return 'aborted';
        if (row?.status !== 'in progress') return 'unknown';
      } catch {
        // Still unreachable: ask again until the deadline.
      }
      if (Date.now() >= deadline) return 'unknown';
      await sleep(100);
    }
  }
}

const statementNames = new Map<string, string>();
const MAX_STATEMENT_NAMES = 1_000;

/** The name of a prepared statement: from its text, so one name never stands for two texts on a connection. */
function statementName(text: string): string {
  let name = statementNames.get(text);
  if (name === undefined) {
    name = `siterest_${createHash('sha256').update(text).digest('hex').slice(0, 32)}`;
    if (statementNames.size >= MAX_STATEMENT_NAMES) statementNames.clear();
    statementNames.set(text, name);
  }
  return name;
}

/**
 * Most statements one connection keeps prepared. node-postgres and the server keep a statement prepared on a
 * connection for the connection's life, and which texts a store prepares depends on which filters requests use
 * (thousands of combinations, anonymous requests' included): past this many, the connection is closed when it goes
 * back to the pool, and the pool opens a new one when it needs one.
 */
const MAX_PREPARED_PER_CONNECTION = 256;
const preparedOn = new WeakMap<PoolClient, Set<string>>();
const TOO_MANY_PREPARED = new Error(`The connection kept more than ${MAX_PREPARED_PER_CONNECTION} prepared statements.`);

function release(client: PoolClient, broken: Error | undefined): void {
  client.off('error', ignore);
  const prepared = preparedOn.get(client)?.size ?? 0;
  // Releasing with an error destroys the connection.
  client.release(broken ?? (prepared > MAX_PREPARED_PER_CONNECTION ? TOO_MANY_PREPARED : undefined));
}

class PgTransactionClient implements SqlClient {
  readonly inTransaction = true;
  private closed = false;

  constructor(
    private readonly client: PoolClient,
    private readonly root: PgSqlClient,
    private readonly statementTimeout: number,
  ) {}

  /** After the transaction ended (or was abandoned) its connection is not this client's any more. */
  end(): void {
    this.closed = true;
  }

  maintain(): Promise<void> {
    return Promise.reject(new Error('A maintenance statement (VACUUM) cannot run inside a transaction.'));
  }

  async query<T extends Row = Row>(text: string, params: readonly unknown[] = [], options?: QueryOptions): Promise<T[]> {
    if (this.closed) throw new StoreError('unavailable', 'The transaction is over: it was committed, rolled back or abandoned.');
    try {
      return (await this.root.run<T>(this.client, text, params, this.statementTimeout, options?.prepare)).rows;
    } catch (error) {
      throw toStoreError(error);
    }
  }

  transaction<T>(work: (client: SqlClient) => Promise<T>): Promise<T> {
    return work(this);
  }

  listen(channel: string, onMessage: (payload: string) => void, onReconnect?: () => void): Listening {
    return this.root.listen(channel, onMessage, onReconnect);
  }

  async close(): Promise<void> {}
}
