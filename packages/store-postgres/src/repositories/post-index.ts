import type { PostIndex } from '@siterest/core';
import { hasNul, idValue } from '../sql/params.js';
import type { Db } from './db.js';
import { lockNames } from './naming-lock.js';

/** Facts about any post id, whatever its type. */
export function postIndex(db: Db): PostIndex {
  return {
    typeOf: async (id) => (await db.sql.query<{ type: string }>(`SELECT type FROM ${db.t.posts} WHERE id = $1::bigint`, [idValue(id)]))[0]?.type ?? null,
    idBySlug: async (type, slug) => {
      // No stored slug can hold a NUL character (see params.ts).
      if (slug === '' || hasNul(slug)) return null;
      const [row] = await db.sql.query<{ id: unknown }>(`SELECT id FROM ${db.t.posts} WHERE type = $1 AND slug = $2 ORDER BY id LIMIT 1`, [type, slug]);
      return row ? Number(row.id) : null;
    },
    slugTaken: async (type, slug, exceptId) => {
      await lockNames(db, `post:${type}`);
      const rows = await db.sql.query(`SELECT 1 FROM ${db.t.posts} WHERE type = $1 AND slug = $2 AND id IS DISTINCT FROM $3::bigint LIMIT 1`, [
        type,
        slug,
        exceptId === undefined ? null : idValue(exceptId),
      ]);
      return rows.length > 0;
    },
  };
}
