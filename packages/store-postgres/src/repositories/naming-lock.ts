import type { SqlClient } from '../sql/client.js';
import type { Db } from './db.js';

/** The names each open transaction holds already (one statement per name and transaction). */
const held = new WeakMap<SqlClient, Set<string>>();

/**
 * Serialises the transactions that choose names of one kind: slugs and titles of a post type (`post:<type>`),
 * names and slugs of a taxonomy (`term:<taxonomy>`). A service checks "is this slug taken?", "does a term with
 * this name exist?", then writes; two transactions doing that at once would both see "free" and both write.
 * The lookups take this lock first (a transaction-scoped advisory lock, keyed by schema and kind), so the second
 * transaction waits for the first to commit and its lookups then see what the first wrote: N concurrent
 * requests get the answers they get one after another. Outside a transaction a lookup answers only for itself,
 * so it takes no lock. The unique indexes of migration 003 back this up.
 */
export async function lockNames(db: Db, kind: string): Promise<void> {
  if (!db.sql.inTransaction) return;
  let names = held.get(db.sql);
  if (!names) held.set(db.sql, (names = new Set()));
  if (names.has(kind)) return;
  await db.sql.query('SELECT pg_advisory_xact_lock(hashtext($1), hashtext($2))', [`siterest:${db.t.schema}`, kind]);
  names.add(kind);
}
