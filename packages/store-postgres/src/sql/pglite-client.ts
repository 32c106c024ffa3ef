import type { PGliteInterface, Transaction } from '@electric-sql/pglite';
import type { Listening, Row, SqlClient } from './client.js';
import { toStoreError } from './errors.js';

type Queryable = Pick<Transaction, 'query'>;

async function run<T extends Row>(db: Queryable, text: string, params: readonly unknown[]): Promise<T[]> {
  try {
    return (await db.query<T>(text, params as unknown[])).rows;
  } catch (error) {
    throw toStoreError(error);
  }
}

/** PGlite: one in-process connection, so transactions hold it exclusively and LISTEN never drops. */
export class PGliteSqlClient implements SqlClient {
  readonly inTransaction = false;

  constructor(
    private readonly db: PGliteInterface,
    private readonly ownsDb: boolean,
  ) {}

  query<T extends Row = Row>(text: string, params: readonly unknown[] = []): Promise<T[]> {
    return run<T>(this.db, text, params);
  }

  async transaction<T>(work: (client: SqlClient) => Promise<T>): Promise<T> {
    try {
      return await this.db.transaction((tx) => work(new PGliteTransactionClient(tx, this)));
    } catch (error) {
      throw toStoreError(error);
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

  constructor(
    private readonly tx: Transaction,
    private readonly root: PGliteSqlClient,
  ) {}

  query<T extends Row = Row>(text: string, params: readonly unknown[] = []): Promise<T[]> {
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
