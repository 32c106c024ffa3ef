import { calendar } from '@siterest/core';
import { col } from '../columns.js';
import { idValues } from '../../sql/params.js';
import { literal, type Db } from '../db.js';
import type { Extras } from '../post-rows.js';

/**
 * The record lists kept in term_relationships, the taxonomy each is filed under, and the column of event_search that
 * holds an event's ids of the list (migration 70).
 */
export const TERM_LISTS = [
  { field: 'categoryIds', taxonomy: calendar.CATEGORY_TAXONOMY, searchColumn: 'category_ids' },
  { field: 'tagIds', taxonomy: calendar.TAG_TAXONOMY, searchColumn: 'tag_ids' },
] as const;

export type TermLists = { categoryIds?: readonly number[]; tagIds?: readonly number[] };

/** An event's categoryIds and tagIds, in the order they were given. */
export const EVENT_TERMS: Extras = {
  select: (db) =>
    TERM_LISTS.map(
      ({ field, taxonomy }) =>
        `ARRAY(SELECT r.term_id FROM ${db.t.termRelationships} r
                WHERE r.object_id = p.id AND r.taxonomy = ${literal(taxonomy)} ORDER BY r.term_order) AS "${field}"`,
    ).join(', '),
  columns: TERM_LISTS.map(({ field }) => col(field, '', 'bigints')),
};

/**
 * Replaces the lists `lists` names. Ids of terms that do not exist are dropped, repeats kept once. Returns
 * the term ids taken away and given (a term in both lists counts twice, as in the record).
 */
export async function replaceEventTerms(db: Db, eventId: number, lists: TermLists): Promise<{ removed: number[]; added: number[] }> {
  const replaced = TERM_LISTS.filter(({ field }) => lists[field] !== undefined);
  if (replaced.length === 0) return { removed: [], added: [] };
  const removed = await db.sql.query<{ term_id: string | number }>(
    `DELETE FROM ${db.t.termRelationships} WHERE object_id = $1::bigint AND taxonomy = ANY($2::text[]) RETURNING term_id`,
    [eventId, replaced.map((l) => l.taxonomy)],
  );
  const termIds: number[] = [];
  const taxonomies: string[] = [];
  const orders: number[] = [];
  for (const { field, taxonomy } of replaced) {
    [...new Set(idValues(lists[field]!))].forEach((id, order) => {
      termIds.push(id);
      taxonomies.push(taxonomy);
      orders.push(order);
    });
  }
  const added = termIds.length
    ? await db.sql.query<{ term_id: string | number }>(
        `INSERT INTO ${db.t.termRelationships} (object_id, term_id, taxonomy, term_order, object_type, status, start_utc, end_utc, hide_from_listings)
         SELECT e.post_id, w.term_id, w.taxonomy, w.ord, p.type, e.status, e.start_utc, e.end_utc, e.hide_from_listings
           FROM unnest($2::bigint[], $3::text[], $4::integer[]) AS w(term_id, taxonomy, ord)
           JOIN ${db.t.events} e ON e.post_id = $1::bigint
           JOIN ${db.t.posts} p ON p.id = e.post_id
          WHERE EXISTS (SELECT 1 FROM ${db.t.terms} t WHERE t.id = w.term_id)
         RETURNING term_id`,
        [eventId, termIds, taxonomies, orders],
      )
    : [];
  return { removed: removed.map((r) => Number(r.term_id)), added: added.map((r) => Number(r.term_id)) };
}

/** What the event contributed to term counts before and after a write: its terms when published, else none. */
export function countDeltas(
  before: { published: boolean; termIds: readonly number[] },
  after: { published: boolean; termIds: readonly number[] },
): Map<number, number> {
  const delta = new Map<number, number>();
  if (before.published) for (const id of before.termIds) delta.set(id, (delta.get(id) ?? 0) - 1);
  if (after.published) for (const id of after.termIds) delta.set(id, (delta.get(id) ?? 0) + 1);
  for (const [id, change] of delta) if (change === 0) delta.delete(id);
  return delta;
}

/**
 * Applies count changes as one atomic `count = count + delta` statement: concurrent writers each add their
 * own change under the row lock, so no count is ever computed from a stale read. Rows are locked in id order
 * so that two writers touching the same terms cannot deadlock, and with NO KEY UPDATE, which does not wait
 * for the KEY SHARE locks the term_relationships foreign key checks of other writers hold.
 */
export async function adjustTermCounts(db: Db, deltas: Map<number, number>): Promise<void> {
  if (deltas.size === 0) return;
  const ids = [...deltas.keys()].sort((a, b) => a - b);
  await db.sql.query(`SELECT 1 FROM ${db.t.terms} WHERE id = ANY($1::bigint[]) ORDER BY id FOR NO KEY UPDATE`, [ids]);
  await db.sql.query(
    `UPDATE ${db.t.terms} t SET count = t.count + d.delta
       FROM unnest($1::bigint[], $2::bigint[]) AS d(id, delta)
      WHERE t.id = d.id`,
    [ids, ids.map((id) => deltas.get(id)!)],
  );
}

/** `before` minus `removed` plus `added`, as multisets. */
export function afterReplace(before: readonly number[], removed: readonly number[], added: readonly number[]): number[] {
  const remaining = [...before];
  for (const id of removed) {
    const at = remaining.indexOf(id);
    if (at >= 0) remaining.splice(at, 1);
  }
  return [...remaining, ...added];
}
