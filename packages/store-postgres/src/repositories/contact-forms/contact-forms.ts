import { randomBytes } from 'node:crypto';
import type { ContactFormOrderKey, ContactFormQuery, ContactFormRecord, ContactFormRepository, NewContactForm } from '@siterest/core';
import { idValue, Params } from '../../sql/params.js';
import { col } from '../columns.js';
import { atomically, type Db } from '../db.js';
import { insertPost, lockPost, readPost, recordColumns, toRecord, updatePost } from '../post-rows.js';
import type { PostType } from '../post-types.js';
import { searchConditions } from '../search-sql.js';
import { outboxRepository, submissionRepository } from './submissions.js';

const CONTACT_FORM: PostType = {
  type: 'contact_form',
  table: (t) => t.contactForms,
  columns: [
    col('locale', 'locale', 'text'),
    col('hash', 'hash', 'text'),
    col('form', 'form', 'text'),
    col('mail', 'mail', 'json'),
    col('mail2', 'mail_2', 'json'),
    col('messages', 'messages', 'json'),
    col('additionalSettings', 'additional_settings', 'text'),
    col('configErrors', 'config_errors', 'json'),
  ],
};

const ORDER_COLUMNS: Record<ContactFormOrderKey, string> = {
  id: 'p.id',
  title: 'p.title',
  slug: 'p.slug',
  date: 'p.post_date',
  modified: 'p.post_modified',
  author: 'p.author_id',
  menu_order: 'p.menu_order',
  parent: 'p.parent_id',
};

/** A lock id per schema for form creation, so two creates never pick the same slug. */
const SLUG_LOCK = 'siterest contact form slugs';


async function uniqueSlug(db: Db, base: string): Promise<string> {
  await db.sql.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`${SLUG_LOCK} ${db.t.schema}`]);
  const rows = await db.sql.query<{ slug: string }>(
    `SELECT slug FROM ${db.t.posts} WHERE type = 'contact_form' AND (slug = $1 OR slug LIKE $2)`,
    [base, `${base.replace(/[\\%_]/g, (c) => `\\${c}`)}-%`],
  );
  const taken = new Set(rows.map((r) => r.slug));
  let slug = base;
  for (let n = 2; taken.has(slug); n++) slug = `${base}-${n}`;
  return slug;
}

/** Contact forms: a `posts` row and a `contact_forms` row each. Not wrapped by the change-version tracker. */
export function contactFormRepository(db: Db): ContactFormRepository {
  return {
    get: (id) => readPost<ContactFormRecord>(db, CONTACT_FORM, id),
    list: async (query: ContactFormQuery) => {
      const params = new Params();
      const where = [`p.type = 'contact_form'`, `p.status NOT IN ('trash', 'auto-draft')`, ...searchConditions(params, query.search, ['p.title', 'p.content', 'p.excerpt'])];
      const direction = query.order === 'asc' ? 'ASC' : 'DESC';
      const order = [...query.orderBy.map((key) => `${ORDER_COLUMNS[key]} ${direction}`), `p.id ${direction}`].join(', ');
      const limit = query.limit === null ? '' : ` LIMIT ${params.add(query.limit, 'bigint')} OFFSET ${params.add(query.offset, 'bigint')}`;
      const offset = query.limit === null && query.offset ? ` OFFSET ${params.add(query.offset, 'bigint')}` : '';
      const rows = await db.sql.query(
        `SELECT ${recordColumns(db, CONTACT_FORM)} FROM ${db.t.posts} p JOIN ${db.t.contactForms} x ON x.post_id = p.id
          WHERE ${where.join(' AND ')} ORDER BY ${order}${limit}${offset}`,
        params.values,
      );
      return rows.map((row) => toRecord<ContactFormRecord>(row, CONTACT_FORM));
    },
    create: (input: NewContactForm) =>
      atomically(db, async (tx) => {
        const slug = await uniqueSlug(tx, input.slug || 'untitled');
        const id = await insertPost(tx, CONTACT_FORM, { ...input, slug } as unknown as Record<string, unknown>);
        return (await readPost<ContactFormRecord>(tx, CONTACT_FORM, id))!;
      }),
    update: (id, patch) =>
      atomically(db, async (tx) => {
        if (!(await lockPost(tx, CONTACT_FORM, id))) return null;
        const { slug: _slug, hash: _hash, ...rest } = patch as Record<string, unknown>;
        await updatePost(tx, CONTACT_FORM, id, rest);
        return readPost<ContactFormRecord>(tx, CONTACT_FORM, id);
      }),
    delete: async (id) => {
      const rows = await db.sql.query(`DELETE FROM ${db.t.posts} WHERE id = $1::bigint AND type = 'contact_form' RETURNING id`, [idValue(id)]);
      return rows.length > 0;
    },
    submissions: submissionRepository(db),
    outbox: outboxRepository(db),
    countHit: async (key, windowStart) => {
      const [row] = await db.sql.query<{ count: number }>(
        `INSERT INTO ${db.t.contactFormRateHits} AS h (key, window_start, count) VALUES ($1, $2::bigint, 1)
          ON CONFLICT (key, window_start) DO UPDATE SET count = h.count + 1
          RETURNING h.count`,
        [key.slice(0, 200), windowStart],
      );
      // Old windows are dropped now and then (about one hit in fifty), never on the hot path of every post.
      if (Math.random() < 0.02) {
        await db.sql.query(`DELETE FROM ${db.t.contactFormRateHits} WHERE window_start < $1::bigint`, [windowStart - 86_400]);
      }
      return Number(row!.count);
    },
    secret: async () => {
      await db.sql.query(`INSERT INTO ${db.t.contactFormSecrets} (name, value) VALUES ('contact_forms', $1) ON CONFLICT (name) DO NOTHING`, [
        randomBytes(32).toString('base64url'),
      ]);
      const [row] = await db.sql.query<{ value: string }>(`SELECT value FROM ${db.t.contactFormSecrets} WHERE name = 'contact_forms'`);
      return row!.value;
    },
  };
}

