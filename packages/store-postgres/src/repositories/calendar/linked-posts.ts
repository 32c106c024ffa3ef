import {
  StoreError,
  type Asked,
  type LinkedPostQuery,
  type LinkedPostRepository,
  type Page,
  type Patch,
  type PostRecord,
} from '@siterest/core';
import { hasNul, Params } from '../../sql/params.js';
import { bindUtc } from '../columns.js';
import { atomically, type Db } from '../db.js';
import { pageAndTotal } from '../paging.js';
import { lockNames } from '../naming-lock.js';
import { insertPost, lockPost, readPost, readPosts, recordColumns, toRecord, updatePost } from '../post-rows.js';
import type { PostType } from '../post-types.js';
import { searchConditions, statusCondition } from '../search-sql.js';
import { needsAuthor, visibilityCondition } from './visibility-sql.js';

/** How a venue or organizer hangs off events: the events' id array that names it, and its searchable columns. */
export interface Linked {
  readonly type: PostType;
  readonly eventColumn: 'venue_ids' | 'organizer_ids';
  readonly search: readonly string[];
}

function linkedFilter(db: Db, linked: Linked, q: LinkedPostQuery, params: Params): string {
  const where = [`p.type = ${params.add(linked.type.type, 'text')}`, statusCondition(params, 'p.status', q.statuses)];
  if (q.visibility) where.push(visibilityCondition(params, 'p.status', 'p.author_id', q.visibility));
  if (q.include) where.push(`p.id = ANY(${params.add([...q.include], 'bigint[]')})`);
  if (q.eventId !== undefined) {
    where.push(`EXISTS (SELECT 1 FROM ${db.t.events} e WHERE e.post_id = ${params.add(q.eventId, 'bigint')} AND p.id = ANY(e.${linked.eventColumn}))`);
  }
  where.push(...searchConditions(params, q.search, linked.search));
  if (q.hasEvents !== undefined || q.upcomingAfter !== undefined) {
    // Events that count: those in eventStatuses (else any but trash and auto-draft) the caller may read.
    let statuses = statusCondition(params, 'e.status', q.eventStatuses ?? 'any');
    let authors = '';
    if (q.eventVisibility) {
      statuses += ` AND ${visibilityCondition(params, 'e.status', 'ep.author_id', q.eventVisibility)}`;
      if (needsAuthor(q.eventVisibility)) authors = ` JOIN ${db.t.posts} ep ON ep.id = e.post_id`;
    }
    const linkedEvents = (extra: string) =>
      `EXISTS (SELECT 1 FROM ${db.t.events} e${authors} WHERE e.${linked.eventColumn} @> ARRAY[p.id] AND ${statuses}${extra})`;
    if (q.hasEvents !== undefined) where.push(q.hasEvents ? linkedEvents('') : `NOT ${linkedEvents('')}`);
    if (q.upcomingAfter !== undefined) where.push(linkedEvents(` AND e.end_utc >= ${bindUtc(params, q.upcomingAfter)}`));
  }
  return where.join(' AND ');
}

/**
 * Whether a list's statement may be kept prepared: not with a search (each word adds a condition), nor with a
 * condition on the events (a generic plan cannot tell a venue with a hundred events from one with a hundred
 * thousand, as for the events list's venue filter), only the kind, statuses and ids.
 */
function preparable(q: LinkedPostQuery): boolean {
  return q.search === undefined && q.eventId === undefined && q.hasEvents === undefined && q.upcomingAfter === undefined;
}

async function listLinked<R>(db: Db, linked: Linked, q: LinkedPostQuery): Promise<Page<R>> {
  const params = new Params();
  const from = `${db.t.posts} p JOIN ${linked.type.table(db.t)} x ON x.post_id = p.id`;
  const where = linkedFilter(db, linked, q, params);
  const countParams = [...params.values];
  const limit = params.count(q.limit);
  const offset = params.count(q.offset);
  return pageAndTotal(
    db,
    q,
    { with: '', columns: recordColumns(db, linked.type), from, where, order: 'p.post_date DESC, p.id DESC', limit, offset, prepare: preparable(q) },
    { page: params.values, count: countParams },
    (row) => toRecord<R>(row, linked.type),
  );
}

/** Venues and organizers: posts with their own table, listed newest first. */
export function linkedRepository<R extends PostRecord, N>(db: Db, linked: Linked): Asked<LinkedPostRepository<R, N>> {
  const { type } = linked;
  return {
    get: (id) => readPost<R>(db, type, id),
    getMany: (ids) => readPosts<R>(db, type, ids),
    list: (query) => listLinked<R>(db, linked, query),
    findByTitle: async (title) => {
      // No stored title can hold a NUL character (see params.ts).
      if (hasNul(title)) return [];
      await lockNames(db, `post:${type.type}`);
      const rows = await db.sql.query(
        `SELECT ${recordColumns(db, type)} FROM ${db.t.posts} p JOIN ${type.table(db.t)} x ON x.post_id = p.id
          WHERE p.type = $1 AND lower(p.title) = lower($2) AND p.status <> 'trash' ORDER BY p.id`,
        [type.type, title],
      );
      return rows.map((row) => toRecord<R>(row, type));
    },
    create: (input: N) =>
      atomically(db, async (tx) => (await readPost<R>(tx, type, await insertPost(tx, type, input as Record<string, unknown>)))!),
    update: (id: number, patch: Patch<R>) =>
      atomically(db, async (tx) => {
        if (!(await lockPost(tx, type, id))) throw new StoreError('not_found', `No ${type.type} ${id}.`);
        await updatePost(tx, type, id, patch as Record<string, unknown>);
        return (await readPost<R>(tx, type, id))!;
      }),
  };
}
