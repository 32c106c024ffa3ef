import type { Pool, PoolClient } from 'pg';
import { isStoreError } from '@siterest/core';
import type { Listening, Row, SqlClient } from './client.js';
import { isConnectionError, toStoreError } from './errors.js';
import { PgListener } from './pg-listener.js';

/** Ignores errors of idle pooled connections (server restart, pg_terminate_backend): the pool drops them and reconnects on demand. */
const ignore = (): void => undefined;

/** node-postgres: statements on the pool, transactions on one checked-out client. */
export class PgSqlClient implements SqlClient {
  readonly inTransaction = false;
  private readonly listener: PgListener;

  constructor(
    private readonly pool: Pool,
    private readonly ownsPool: boolean,
  ) {
    // Without a listener an idle connection's error would crash the process.
    pool.on('error', ignore);
    this.listener = new PgListener(pool);
  }

  async query<T extends Row = Row>(text: string, params: readonly unknown[] = []): Promise<T[]> {
    try {
      return (await this.pool.query<T>(text, params as unknown[])).rows;
    } catch (error) {
      throw toStoreError(error);
    }
  }

  async transaction<T>(work: (client: SqlClient) => Promise<T>): Promise<T> {
    let client: PoolClient;
    try {
      client = await this.pool.connect();
    } catch (error) {
      throw toStoreError(error);
    }
    client.on('error', ignore);
    let broken: Error | undefined;
    try {
      await client.query('BEGIN');
      const result = await work(new PgTransactionClient(client, this));
      await client.query('COMMIT');
      return result;
    } catch (error) {
      if (isStoreError(error, 'unavailable') || isConnectionError(error)) {
        broken = error as Error;
      } else {
        await client.query('ROLLBACK').catch((rollbackError: Error) => {
          broken = rollbackError;
        });
      }
      throw toStoreError(error);
    } finally {
      client.off('error', ignore);
      // Releasing with an error destroys the connection instead of handing a dead one to the next request.
      client.release(broken);
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
}

class PgTransactionClient implements SqlClient {
  readonly inTransaction = true;

  constructor(
    private readonly client: PoolClient,
    private readonly root: PgSqlClient,
  ) {}

  async query<T extends Row = Row>(text: string, params: readonly unknown[] = []): Promise<T[]> {
    try {
      return (await this.client.query<T>(text, params as unknown[])).rows;
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
