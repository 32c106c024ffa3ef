import type { SqlClient } from '../sql/client.js';
import { isRetryableConflict } from '../sql/errors.js';
import { sleep } from '../sql/limits.js';
import type { Tables } from '../tables.js';

/** What every repository function works with: a client (maybe bound to a transaction) and the table names. */
export interface Db {
  readonly sql: SqlClient;
  readonly t: Tables;
}

/**
 * How often a transaction runs before giving up on a conflict it can resolve by running again (a deadlock, a
 * serialization failure; for `store.transaction` also a unique value another transaction took first).
 */
export const CONFLICT_ATTEMPTS = 8;

/**
 * A short random pause before running a transaction again, so that the transactions that collided do not collide
 * again at once: retried without one, three writers of events at the same few venues (migration 65's triggers lock
 * venues and events in opposite orders) could deadlock three times running among 1,000 concurrent writes.
 */
export const conflictBackoff = (attempt: number): Promise<void> => sleep(Math.random() * Math.min(200, 10 * 2 ** attempt));

/**
 * Runs a write made of several statements atomically. Inside a caller's transaction it simply joins it;
 * on its own it is a transaction of its own, run again after a pause when PostgreSQL picked it as a deadlock
 * victim (the work is only SQL, so running it again is safe).
 */
export async function atomically<T>(db: Db, work: (db: Db) => Promise<T>): Promise<T> {
  if (db.sql.inTransaction) return work(db);
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.sql.transaction((sql) => work({ sql, t: db.t }));
    } catch (error) {
      if (attempt >= CONFLICT_ATTEMPTS || !isRetryableConflict(error)) throw error;
      await conflictBackoff(attempt);
    }
  }
}

/**
 * Runs a write, then `changed` (which advances the change version the caches read); after a failed write too,
 * without making the failure wait for it: the write may have committed with its answer lost (a connection dropped
 * then), and an answer cached before it must not outlive it. `changed` never rejects: an advance that fails is
 * recorded as owed by the store itself (see PostgresStore.changeVersion).
 */
export async function advancingAfter<T>(write: () => Promise<T>, changed: () => Promise<void>): Promise<T> {
  let result: T;
  try {
    result = await write();
  } catch (error) {
    void changed();
    throw error;
  }
  await changed();
  return result;
}

/** A SQL string literal for constants written in this package (never for input). */
export function literal(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}
