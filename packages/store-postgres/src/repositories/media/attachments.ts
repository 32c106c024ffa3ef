import {
  StoreError,
  type AttachmentQuery,
  type AttachmentRecord,
  type AttachmentRepository,
  type NewAttachment,
  type Patch,
} from '@siterest/core';
import type { Row } from '../../sql/client.js';
import { idValue, Params } from '../../sql/params.js';
import { col } from '../columns.js';
import { advancingAfter, atomically, type Db } from '../db.js';
import { countOf, pageWithTotal } from '../paging.js';
import { insertPost, lockPost, readPost, readPosts, recordColumns, toRecord, updatePost } from '../post-rows.js';
import type { PostType } from '../post-types.js';
import { searchConditions, statusCondition } from '../search-sql.js';

const ATTACHMENT: PostType = {
  type: 'attachment',
  table: (t) => t.attachments,
  columns: [
    col('mimeType', 'mime_type', 'text'),
    col('file', 'file', 'text'),
    col('guid', 'guid', 'text'),
    // Kept as JSON text (key order matters); converted at this repository's edge.
    col('metadata', 'metadata', 'text'),
    col('altText', 'alt_text', 'text'),
    col('sourceUrl', 'source_url', 'text'),
    col('context', 'context', 'text'),
  ],
};

/** Fields a calendar answer shows (an event's `image`): changing them advances the change version. */
const SHOWN = ['metadata', 'file', 'mimeType'] as const;

const ORDER_COLUMNS: Record<string, string> = {
  date: 'p.post_date',
  id: 'p.id',
  title: 'lower(p.title)',
  slug: 'p.slug',
  modified: 'p.post_modified',
  author: 'p.author_id',
  parent: 'p.parent_id',
};

function fromStore(record: AttachmentRecord): AttachmentRecord {
  const raw = record.metadata as unknown;
  return { ...record, metadata: typeof raw === 'string' ? JSON.parse(raw) : (raw ?? null) };
}

function toStore(input: Record<string, unknown>): Record<string, unknown> {
  if (input.metadata === undefined) return input;
  return { ...input, metadata: input.metadata === null ? null : JSON.stringify(input.metadata) };
}

function listFilter(q: AttachmentQuery, params: Params): string {
  const where = [`p.type = 'attachment'`, statusCondition(params, 'p.status', q.statuses)];
  if (q.include) where.push(`p.id = ANY(${params.add([...q.include], 'bigint[]')})`);
  if (q.exclude?.length) where.push(`NOT (p.id = ANY(${params.add([...q.exclude], 'bigint[]')}))`);
  if (q.parentIds) where.push(`p.parent_id = ANY(${params.add([...q.parentIds], 'bigint[]')})`);
  if (q.authorIds) where.push(`p.author_id = ANY(${params.add([...q.authorIds], 'bigint[]')})`);
  if (q.excludeParentIds?.length) where.push(`NOT (p.parent_id = ANY(${params.add([...q.excludeParentIds], 'bigint[]')}))`);
  if (q.excludeAuthorIds?.length) where.push(`NOT (p.author_id = ANY(${params.add([...q.excludeAuthorIds], 'bigint[]')}))`);
  if (q.modifiedAfter !== undefined) where.push(`p.post_modified > ${params.add(q.modifiedAfter, 'text')}`);
  if (q.modifiedBefore !== undefined) where.push(`p.post_modified < ${params.add(q.modifiedBefore, 'text')}`);
  if (q.slugs) where.push(`p.slug = ANY(${params.add([...q.slugs], 'text[]')})`);
  if (q.after !== undefined) where.push(`p.post_date > ${params.add(q.after, 'text')}`);
  if (q.before !== undefined) where.push(`p.post_date < ${params.add(q.before, 'text')}`);
  if (q.mimeTypes) {
    const exact = q.mimeTypes.filter((m) => !m.endsWith('/'));
    const families = q.mimeTypes.filter((m) => m.endsWith('/')).map((m) => `${m.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    where.push(`(x.mime_type = ANY(${params.add(exact, 'text[]')}) OR x.mime_type LIKE ANY(${params.add(families, 'text[]')}))`);
  }
  where.push(...searchConditions(params, q.search, ['p.title', 'p.content', 'p.excerpt', 'x.file']));
  return where.join(' AND ');
}

export function attachmentRepository(db: Db, changed: () => Promise<void>): AttachmentRepository {
  const from = `${db.t.posts} p JOIN ${db.t.attachments} x ON x.post_id = p.id`;
  const read = async (id: number) => {
    const record = await readPost<AttachmentRecord>(db, ATTACHMENT, id);
    return record ? fromStore(record) : null;
  };
  const rows = (found: Row[]) => found.map((row) => fromStore(toRecord<AttachmentRecord>(row, ATTACHMENT)));
  return {
    get: read,
    getMany: async (ids) => (await readPosts<AttachmentRecord>(db, ATTACHMENT, ids)).map(fromStore),
    create: (input: NewAttachment) =>
      atomically(db, async (tx) => fromStore((await readPost<AttachmentRecord>(tx, ATTACHMENT, await insertPost(tx, ATTACHMENT, toStore(input as unknown as Record<string, unknown>))))!)),
    update: async (id: number, patch: Patch<AttachmentRecord>) => {
      const update = () =>
        atomically(db, async (tx) => {
          if (!(await lockPost(tx, ATTACHMENT, id))) throw new StoreError('not_found', `No attachment ${id}.`);
          await updatePost(tx, ATTACHMENT, id, toStore(patch as Record<string, unknown>));
          return fromStore((await readPost<AttachmentRecord>(tx, ATTACHMENT, id))!);
        });
      return SHOWN.some((field) => patch[field] !== undefined) ? advancingAfter(update, changed) : update();
    },
    // Advances the version after any delete, one that found nothing included: simpler than telling a failed one
    // (which may have committed, see advancingAfter) from one that found nothing.
    delete: (id: number) =>
      advancingAfter(async () => (await db.sql.query(`DELETE FROM ${db.t.posts} WHERE id = $1::bigint AND type = 'attachment' RETURNING id`, [idValue(id)])).length > 0, changed),
    list: async (q: AttachmentQuery) => {
      const params = new Params();
      const where = listFilter(q, params);
      const countParams = [...params.values];
      let order: string;
      if (q.orderBy === 'include' && q.include) order = `array_position(${params.add([...q.include], 'bigint[]')}, p.id), p.id`;
      else {
        const direction = q.order === 'asc' ? 'ASC' : 'DESC';
        order = `${ORDER_COLUMNS[q.orderBy] ?? 'p.post_date'} ${direction}, p.id ${direction}`;
      }
      const limit = params.add(q.limit, 'bigint');
      const offset = params.add(q.offset, 'bigint');
      return pageWithTotal(
        q.offset,
        q.limit,
        async () => rows(await db.sql.query(`SELECT ${recordColumns(db, ATTACHMENT)} FROM ${from} WHERE ${where} ORDER BY ${order} LIMIT ${limit} OFFSET ${offset}`, params.values)),
        () => countOf(db.sql.query<{ n: unknown }>(`SELECT count(*) AS n FROM ${from} WHERE ${where}`, countParams)),
      );
    },
    findByUrl: async (url) => {
      const found = await db.sql.query(
        `SELECT ${recordColumns(db, ATTACHMENT)} FROM ${from} WHERE p.type = 'attachment' AND (x.source_url = $1 OR x.guid = $1) ORDER BY p.id LIMIT 1`,
        [url],
      );
      return rows(found)[0] ?? null;
    },
    filesIn: async (folder) => {
      const prefix = `${folder.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      const found = await db.sql.query<{ file: string }>(`SELECT file FROM ${db.t.attachments} WHERE file LIKE $1`, [prefix]);
      return found.map((r) => r.file).filter((file) => !file.slice(folder.length).includes('/'));
    },
    featuredImages: async (offset, limit) => {
      const items = await db.sql.query<{ image_id: unknown }>(
        `SELECT image_id FROM ${db.t.posts} WHERE image_id <> 0 GROUP BY image_id ORDER BY min(id) LIMIT $1::bigint OFFSET $2::bigint`,
        [limit, offset],
      );
      const total = await countOf(db.sql.query<{ n: unknown }>(`SELECT count(DISTINCT image_id) AS n FROM ${db.t.posts} WHERE image_id <> 0`));
      return { items: items.map((r) => Number(r.image_id)), total };
    },
    postsUsingImage: async (q) => {
      const params = new Params();
      const where = [`p.content ILIKE ${params.add(`%wp-image-${q.attachmentId}%`, 'text')}`];
      if (q.types) where.push(`p.type = ANY(${params.add([...q.types], 'text[]')})`);
      if (q.ids && q.ids.length) where.push(`p.id = ANY(${params.add([...q.ids], 'bigint[]')})`);
      const found = await db.sql.query<{ id: unknown; type: string }>(
        `SELECT p.id, p.type FROM ${db.t.posts} p WHERE ${where.join(' AND ')} ORDER BY p.id LIMIT ${params.add(q.limit, 'bigint')} OFFSET ${params.add(q.offset, 'bigint')}`,
        params.values,
      );
      return found.map((r) => ({ id: Number(r.id), type: r.type }));
    },
  };
}
