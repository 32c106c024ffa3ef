import type { SqlClient } from '../sql/client.js';
import { isRetryableConflict } from '../sql/errors.js';
import type { Tables } from '../tables.js';

/** What every repository function works with: a client (maybe bound to a transaction) and the table names. */
export interface Db {
  readonly sql: SqlClient;
  readonly t: Tables;
}

const ATTEMPTS = 3;

/**
 * Runs a write made of several statements atomically. Inside a caller's transaction it simply joins it;
 * on its own it is a transaction of its own, retried when PostgreSQL picked it as a deadlock victim
 * (the work is only SQL, so running it again is safe).
 */
export async function atomically<T>(db: Db, work: (db: Db) => Promise<T>): Promise<T> {
  if (db.sql.inTransaction) return work(db);
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.sql.transaction((sql) => work({ sql, t: db.t }));
    } catch (error) {
      if (attempt >= ATTEMPTS || !isRetryableConflict(error)) throw error;
    }
  }
}

/** A SQL string literal for constants written in this package (never for input). */
export function literal(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}
