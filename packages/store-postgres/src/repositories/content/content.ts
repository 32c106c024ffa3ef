import type { ContentRecord, ContentRepository, NewContent, SeoRankCounts } from '@siterest/core';
import { idValue, idValues, Params } from '../../sql/params.js';
import { col } from '../columns.js';
import { atomically, type Db } from '../db.js';
import { countOf, pageWithTotal } from '../paging.js';
import { insertPost, lockPost, readPost, recordColumns, toRecord, updatePost } from '../post-rows.js';
import type { PostType } from '../post-types.js';
import { statusCondition } from '../search-sql.js';

/** Every content post type keeps its own fields in `content`; the post's type is whatever the record says. */
const CONTENT: PostType = {
  type: '',
  table: (t) => t.content,
  columns: [
    col('categoryIds', 'category_ids', 'bigints'),
    col('videoUrl', 'video_url', 'text'),
    col('focusKeyphrase', 'focus_keyphrase', 'text'),
    col('seoScore', 'seo_score', 'integer'),
    col('noindex', 'noindex', 'boolean'),
    col('linkCount', 'link_count', 'integer'),
  ],
};

const FROM = (db: Db) => `${db.t.posts} p JOIN ${db.t.content} x ON x.post_id = p.id`;

/** Articles and videos: a `posts` row and a `content` row each. */
export function contentRepository(db: Db): ContentRepository {
  const read = async (id: number) => readPost<ContentRecord>(db, CONTENT, id);
  return {
    get: read,
    list: async (query) => {
      const params = new Params();
      const where = [`p.type = ANY(${params.add([...query.types], 'text[]')})`, statusCondition(params, 'p.status', query.statuses)];
      if (query.withoutPassword) where.push(`p.password = ''`);
      if (query.categoryIds) where.push(`x.category_ids && ${params.add(idValues(query.categoryIds), 'bigint[]')}`);
      const condition = where.join(' AND ');
      const countValues = [...params.values];
      return pageWithTotal(
        query.offset,
        query.limit,
        async () =>
          (
            await db.sql.query(
              `SELECT ${recordColumns(db, CONTENT)} FROM ${FROM(db)} WHERE ${condition} ORDER BY p.post_date DESC, p.id DESC
                LIMIT ${params.add(query.limit, 'bigint')} OFFSET ${params.add(query.offset, 'bigint')}`,
              params.values,
            )
          ).map((row) => toRecord<ContentRecord>(row, CONTENT)),
        () => countOf(db.sql.query<{ n: unknown }>(`SELECT count(*) AS n FROM ${FROM(db)} WHERE ${condition}`, countValues)),
      );
    },
    create: (input: NewContent) =>
      atomically(db, async (tx) => {
        const id = await insertPost(tx, { ...CONTENT, type: input.type }, input as unknown as Record<string, unknown>);
        return (await readPost<ContentRecord>(tx, CONTENT, id))!;
      }),
    update: (id, patch) =>
      atomically(db, async (tx) => {
        if (!(await lockPost(tx, CONTENT, id))) return null;
        await updatePost(tx, CONTENT, id, patch as Record<string, unknown>);
        return readPost<ContentRecord>(tx, CONTENT, id);
      }),
    delete: async (id) =>
      (await db.sql.query(`DELETE FROM ${db.t.posts} p USING ${db.t.content} x WHERE p.id = $1::bigint AND x.post_id = p.id RETURNING p.id`, [idValue(id)])).length > 0,
    seoRankCounts: async (query) => {
      const params = new Params();
      const where = [`p.type = ${params.add(query.type, 'text')}`, `p.status = ${params.add(query.status, 'text')}`];
      if (query.authorId !== undefined) where.push(`p.author_id = ${params.add(query.authorId, 'bigint')}`);
      const [row] = await db.sql.query(
        `SELECT count(*) FILTER (WHERE x.seo_score BETWEEN 1 AND 40) AS bad,
                count(*) FILTER (WHERE x.seo_score BETWEEN 41 AND 70) AS ok,
                count(*) FILTER (WHERE x.seo_score BETWEEN 71 AND 100) AS good,
                count(*) FILTER (WHERE x.focus_keyphrase = '') AS na,
                count(*) FILTER (WHERE x.noindex) AS noindex
           FROM ${FROM(db)} WHERE ${where.join(' AND ')}`,
        params.values,
      );
      const counts: SeoRankCounts = { bad: 0, ok: 0, good: 0, na: 0, noindex: 0 };
      for (const rank of Object.keys(counts) as Array<keyof SeoRankCounts>) counts[rank] = Number(row?.[rank] ?? 0);
      return counts;
    },
    linksPending: async (limit) =>
      (
        await db.sql.query(
          `SELECT ${recordColumns(db, CONTENT)} FROM ${FROM(db)}
            WHERE x.link_count IS NULL AND p.status = 'publish'
            ORDER BY x.post_id LIMIT $1::bigint`,
          [Math.max(0, Math.floor(limit))],
        )
      ).map((row) => toRecord<ContentRecord>(row, CONTENT)),
    setLinkCount: async (id, count, content) =>
      (
        await db.sql.query(
          `UPDATE ${db.t.content} x SET link_count = $2::integer FROM ${db.t.posts} p
            WHERE x.post_id = $1::bigint AND p.id = x.post_id AND p.content = $3::text RETURNING x.post_id`,
          [idValue(id), count, content],
        )
      ).length > 0,
  };
}
