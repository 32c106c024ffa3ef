import type { PGliteInterface, Transaction } from '@electric-sql/pglite';
import { StoreError } from '@siterest/core';
import type { Listening, Row, SqlClient } from './client.js';
import { toStoreError } from './errors.js';
import { bindable } from './params.js';
import { TimedMutex, withDeadline, type Timeouts, type TransactionOptions } from './limits.js';

type Queryable = Pick<Transaction, 'query'>;

async function run<T extends Row>(db: Queryable, text: string, params: readonly unknown[]): Promise<T[]> {
  try {
    return (await db.query<T>(text, bindable(params))).rows;
  } catch (error) {
    throw toStoreError(error);
  }
}

/**
 * Every store on one PGlite database takes turns through the same queue, so a caller that gave up waiting is
 * taken out of it instead of running later, after it was told the database is busy.
 */
const turns = new WeakMap<PGliteInterface, TimedMutex>();

function turnsOf(db: PGliteInterface): TimedMutex {
  let mutex = turns.get(db);
  if (!mutex) turns.set(db, (mutex = new TimedMutex()));
  return mutex;
}

/**
 * PGlite: one in-process connection, so transactions hold it exclusively and LISTEN never drops.
 *
 * Limits: the wait for a turn is bounded by the connection timeout and a transaction by the transaction
 * timeout (after which it is rolled back and the database is free again). A statement that has started cannot be
 * interrupted: PGlite runs it to the end on the JavaScript thread, which is why input bounds matter most here.
 */
export class PGliteSqlClient implements SqlClient {
  readonly inTransaction = false;
  private readonly turns: TimedMutex;

  constructor(
    private readonly db: PGliteInterface,
    private readonly ownsDb: boolean,
    readonly timeouts: Timeouts,
  ) {
    this.turns = turnsOf(db);
  }

  async query<T extends Row = Row>(text: string, params: readonly unknown[] = []): Promise<T[]> {
    const done = await this.turns.acquire(this.timeouts.connection);
    try {
      return await run<T>(this.db, text, params);
    } finally {
      done();
    }
  }

  /** PGlite has no statement limit to lift: the statement takes its turn like any other. */
  async maintain(text: string): Promise<void> {
    await this.query(text);
  }

  async transaction<T>(work: (client: SqlClient) => Promise<T>, options: TransactionOptions = {}): Promise<T> {
    const done = await this.turns.acquire(this.timeouts.connection);
    try {
      return await this.db.transaction(async (tx) => {
        const client = new PGliteTransactionClient(tx, this);
        try {
          // When the limit strikes, PGlite rolls back and the work's later statements fail ("Transaction is closed").
          return await withDeadline(work(client), options.timeout ?? this.timeouts.transaction, 'a transaction', () => client.end());
        } finally {
          client.end();
        }
      });
    } catch (error) {
      throw toStoreError(error);
    } finally {
      done();
    }
  }

  listen(channel: string, onMessage: (payload: string) => void): Listening {
    const unlisten = this.db.listen(channel, onMessage).catch((error: unknown) => {
      throw toStoreError(error);
    });
    return {
      ready: unlisten.then(() => undefined),
      stop: async () => {
        const stop = await unlisten.catch(() => null);
        if (stop && !this.db.closed) await stop();
      },
    };
  }

  async close(): Promise<void> {
    if (this.ownsDb && !this.db.closed) await this.db.close();
  }
}

class PGliteTransactionClient implements SqlClient {
  readonly inTransaction = true;
  private closed = false;

  constructor(
    private readonly tx: Transaction,
    private readonly root: PGliteSqlClient,
  ) {}

  end(): void {
    this.closed = true;
  }

  maintain(): Promise<void> {
    return Promise.reject(new Error('A maintenance statement (VACUUM) cannot run inside a transaction.'));
  }

  query<T extends Row = Row>(text: string, params: readonly unknown[] = []): Promise<T[]> {
    if (this.closed) return Promise.reject(new StoreError('unavailable', 'The transaction is over: it was committed, rolled back or abandoned.'));
    return run<T>(this.tx, text, params);
  }

  transaction<T>(work: (client: SqlClient) => Promise<T>): Promise<T> {
    return work(this);
  }

  listen(channel: string, onMessage: (payload: string) => void): Listening {
    return this.root.listen(channel, onMessage);
  }

  async close(): Promise<void> {}
}
