import type { NewPopup, PopupCounts, PopupRecord, PopupRepository } from '@siterest/core';
import type { Row } from '../../sql/client.js';
import { idValue, Params } from '../../sql/params.js';
import { col } from '../columns.js';
import { atomically, type Db } from '../db.js';
import { countOf, pageWithTotal } from '../paging.js';
import { insertPost, lockPost, readPost, recordColumns, toRecord, updatePost } from '../post-rows.js';
import type { PostType } from '../post-types.js';
import { statusCondition } from '../search-sql.js';

const POPUP: PostType = {
  type: 'popup',
  table: (t) => t.popups,
  columns: [col('openCount', 'open_count', 'bigint'), col('openCountTotal', 'open_count_total', 'bigint'), col('lastOpened', 'last_opened', 'bigint')],
};

const counts = (row: Row): PopupCounts => ({
  id: Number(row.post_id),
  openCount: Number(row.open_count),
  openCountTotal: Number(row.open_count_total),
  lastOpened: Number(row.last_opened),
});

/** Popups: a `posts` row and a `popups` row each. Opens are single atomic UPDATEs, never read-modify-write. */
export function popupRepository(db: Db): PopupRepository {
  return {
    get: (id) => readPost<PopupRecord>(db, POPUP, id),
    list: async (query) => {
      const params = new Params();
      const where = `p.type = 'popup' AND ${statusCondition(params, 'p.status', query.statuses)}`;
      const countValues = [...params.values];
      const from = `${db.t.posts} p JOIN ${db.t.popups} x ON x.post_id = p.id`;
      return pageWithTotal(
        query.offset,
        query.limit,
        async () =>
          (
            await db.sql.query(
              `SELECT ${recordColumns(db, POPUP)} FROM ${from} WHERE ${where} ORDER BY p.post_date DESC, p.id DESC
                LIMIT ${params.add(query.limit, 'bigint')} OFFSET ${params.add(query.offset, 'bigint')}`,
              params.values,
            )
          ).map((row) => toRecord<PopupRecord>(row, POPUP)),
        () => countOf(db.sql.query<{ n: unknown }>(`SELECT count(*) AS n FROM ${from} WHERE ${where}`, countValues)),
      );
    },
    create: (input: NewPopup) =>
      atomically(db, async (tx) => {
        const id = await insertPost(tx, POPUP, { openCount: 0, openCountTotal: 0, lastOpened: 0, ...input } as Record<string, unknown>);
        return (await readPost<PopupRecord>(tx, POPUP, id))!;
      }),
    update: (id, patch) =>
      atomically(db, async (tx) => {
        if (!(await lockPost(tx, POPUP, id))) return null;
        await updatePost(tx, POPUP, id, patch as Record<string, unknown>);
        return readPost<PopupRecord>(tx, POPUP, id);
      }),
    delete: async (id) => (await db.sql.query(`DELETE FROM ${db.t.posts} WHERE id = $1::bigint AND type = 'popup' RETURNING id`, [idValue(id)])).length > 0,
    recordOpen: async (id, localTimestamp) => {
      const [row] = await db.sql.query(
        `WITH hit AS (
           UPDATE ${db.t.popups} x
              SET open_count = x.open_count + 1, open_count_total = x.open_count_total + 1, last_opened = $2::bigint
             FROM ${db.t.posts} p
            WHERE x.post_id = $1::bigint AND p.id = x.post_id AND p.status <> 'trash'
           RETURNING x.post_id, x.open_count, x.open_count_total, x.last_opened
         ), total AS (
           INSERT INTO ${db.t.popupTotals} AS t (name, value) SELECT 'open_count', 1 FROM hit
           ON CONFLICT (name) DO UPDATE SET value = t.value + 1
         )
         SELECT * FROM hit`,
        [idValue(id), localTimestamp],
      );
      return row ? counts(row) : null;
    },
    resetCount: async (id) => {
      const [row] = await db.sql.query(
        `UPDATE ${db.t.popups} SET open_count = 0 WHERE post_id = $1::bigint RETURNING post_id, open_count, open_count_total, last_opened`,
        [idValue(id)],
      );
      return row ? counts(row) : null;
    },
    totalOpens: async () => {
      const [row] = await db.sql.query<{ value: unknown }>(`SELECT value FROM ${db.t.popupTotals} WHERE name = 'open_count'`);
      return Number(row?.value ?? 0);
    },
  };
}
