import type { SqlClient } from './sql/client.js';
import type { Tables } from './tables.js';

export interface FirstIds {
  post?: number;
  term?: number;
  user?: number;
}

/**
 * Moves the id sequences up to `firstIds` when they are behind (a site imported from WordPress continues its
 * ids). Never moves a sequence back, so it is safe on every start.
 */
export async function applyFirstIds(sql: SqlClient, tables: Tables, firstIds: FirstIds = {}): Promise<void> {
  const floors: Array<[string, number | undefined]> = [
    [tables.posts, firstIds.post],
    [tables.terms, firstIds.term],
    [tables.users, firstIds.user],
  ];
  for (const [table, first] of floors) {
    if (first === undefined || first <= 1) continue;
    const [row] = await sql.query<{ seq: string | null }>(`SELECT pg_get_serial_sequence($1, 'id') AS seq`, [table]);
    if (!row?.seq) continue;
    // The name comes quoted from the catalog; reading the sequence itself sees whether its next value was handed out.
    await sql.query(
      `SELECT setval($1::regclass, $2::bigint, false) FROM ${row.seq}
        WHERE (CASE WHEN is_called THEN last_value + 1 ELSE last_value END) < $2::bigint`,
      [row.seq, first],
    );
  }
}
