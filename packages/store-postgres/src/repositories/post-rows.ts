import type { PostRecord } from '@siterest/core';
import type { Row } from '../sql/client.js';
import { idValue, idValues, Params } from '../sql/params.js';
import { assignments, fromRow, selectList, type Column } from './columns.js';
import type { Db } from './db.js';
import { POST_COLUMNS, type PostType } from './post-types.js';

/** Extra read-only fields a post type assembles from other tables (an event's terms). */
export interface Extras {
  readonly select: (db: Db) => string;
  readonly columns: readonly Column[];
}

const NO_EXTRAS: Extras = { select: () => '', columns: [] };

/** The select list of a whole record, from `posts p` joined with the type's table as `x`. */
export function recordColumns(db: Db, type: PostType, extras: Extras = NO_EXTRAS): string {
  const extra = extras.select(db);
  return `${selectList('p', POST_COLUMNS)}, ${selectList('x', type.columns)}${extra ? `, ${extra}` : ''}`;
}

function selectPosts(db: Db, type: PostType, extras: Extras): string {
  return `SELECT ${recordColumns(db, type, extras)} FROM ${db.t.posts} p JOIN ${type.table(db.t)} x ON x.post_id = p.id`;
}

export function toRecord<R>(row: Row, type: PostType, extras: Extras = NO_EXTRAS): R {
  return fromRow<R>(row, [...POST_COLUMNS, ...type.columns, ...extras.columns]);
}

/** Records with these ids, in the order and repetition of `ids`. */
export async function readPosts<R extends PostRecord>(db: Db, type: PostType, ids: readonly number[], extras: Extras = NO_EXTRAS): Promise<R[]> {
  if (ids.length === 0) return [];
  const rows = await db.sql.query(`${selectPosts(db, type, extras)} WHERE p.id = ANY($1::bigint[])`, [[...new Set(idValues(ids))]], { prepare: true });
  const byId = new Map(rows.map((row) => [Number(row.id), toRecord<R>(row, type, extras)]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

export async function readPost<R extends PostRecord>(db: Db, type: PostType, id: number, extras: Extras = NO_EXTRAS): Promise<R | null> {
  return (await readPosts<R>(db, type, [id], extras))[0] ?? null;
}

/** Inserts the post and its type's row in one statement; returns the new id (from the shared sequence). */
export async function insertPost(db: Db, type: PostType, input: Record<string, unknown>): Promise<number> {
  const params = new Params();
  const post = assignments(params, POST_COLUMNS.filter((c) => c.field !== 'id'), { ...input, type: type.type });
  const own = assignments(params, type.columns, input);
  const [row] = await db.sql.query<{ id: string | number }>(
    `WITH p AS (
       INSERT INTO ${db.t.posts} (${post.map(([c]) => c).join(', ')}) VALUES (${post.map(([, v]) => v).join(', ')}) RETURNING id
     )
     INSERT INTO ${type.table(db.t)} (post_id${own.map(([c]) => `, ${c}`).join('')})
     SELECT p.id${own.map(([, v]) => `, ${v}`).join('')} FROM p
     RETURNING post_id AS id`,
    params.values,
  );
  return Number(row!.id);
}

/** Locks the type's row for the rest of the transaction; false when there is no such record. */
export async function lockPost(db: Db, type: PostType, id: number): Promise<boolean> {
  const rows = await db.sql.query(`SELECT 1 FROM ${type.table(db.t)} WHERE post_id = $1::bigint FOR UPDATE`, [idValue(id)]);
  return rows.length > 0;
}

/** Writes the fields a patch names, in `posts` and in the type's table. */
export async function updatePost(db: Db, type: PostType, id: number, patch: Record<string, unknown>): Promise<void> {
  const params = new Params();
  const key = params.add(id, 'bigint');
  const editable = { ...patch, id: undefined, type: undefined };
  const post = assignments(params, POST_COLUMNS, editable);
  const own = assignments(params, type.columns, editable);
  const set = (pairs: Array<[string, string]>) => pairs.map(([c, v]) => `${c} = ${v}`).join(', ');
  const postUpdate = `UPDATE ${db.t.posts} SET ${set(post)} WHERE id = ${key}`;
  const ownUpdate = `UPDATE ${type.table(db.t)} SET ${set(own)} WHERE post_id = ${key}`;
  if (post.length && own.length) await db.sql.query(`WITH p AS (${postUpdate}) ${ownUpdate}`, params.values);
  else if (post.length) await db.sql.query(postUpdate, params.values);
  else if (own.length) await db.sql.query(ownUpdate, params.values);
}
