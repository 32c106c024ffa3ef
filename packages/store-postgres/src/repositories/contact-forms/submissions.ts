import type { NewOutboxRecord, NewSubmission, OutboxRecord, OutboxRepository, SubmissionRecord, SubmissionRepository } from '@siterest/core';
import type { Row } from '../../sql/client.js';
import { idValue, Params } from '../../sql/params.js';
import type { Db } from '../db.js';

const json = (value: unknown) => (typeof value === 'string' ? JSON.parse(value) : value);
const num = (value: unknown) => (value === null || value === undefined ? null : Number(value));

const SUBMISSION_COLUMNS = 'id, form_id, form_title, status, message, fields, files, meta, posted_data_hash, spam_log, demo_mode, created_at, updated_at';

function toSubmission(row: Row): SubmissionRecord {
  return {
    id: Number(row.id),
    formId: Number(row.form_id),
    formTitle: String(row.form_title),
    status: row.status as SubmissionRecord['status'],
    message: String(row.message),
    fields: json(row.fields),
    files: json(row.files),
    meta: json(row.meta),
    postedDataHash: String(row.posted_data_hash),
    spamLog: json(row.spam_log),
    demoMode: Boolean(row.demo_mode),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

const OUTBOX_COLUMNS = 'id, submission_id, template, message, status, error, attempts, transport, created_at, sent_at';

function toOutbox(row: Row): OutboxRecord {
  return {
    id: Number(row.id),
    submissionId: num(row.submission_id),
    template: String(row.template),
    message: json(row.message),
    status: row.status as OutboxRecord['status'],
    error: row.error === null ? null : String(row.error),
    attempts: Number(row.attempts),
    transport: String(row.transport),
    createdAt: Number(row.created_at),
    sentAt: num(row.sent_at),
  };
}

export function submissionRepository(db: Db): SubmissionRepository {
  const t = db.t.contactFormSubmissions;
  return {
    create: async (input: NewSubmission) => {
      const [row] = await db.sql.query(
        `INSERT INTO ${t} (form_id, form_title, status, message, fields, files, meta, posted_data_hash, spam_log, demo_mode, created_at, updated_at)
          VALUES ($1::bigint, $2, $3, $4, $5::jsonb, $6::jsonb, $7::jsonb, $8, $9::jsonb, $10, $11::bigint, $12::bigint)
          RETURNING ${SUBMISSION_COLUMNS}`,
        [
          input.formId,
          input.formTitle,
          input.status,
          input.message,
          JSON.stringify(input.fields),
          JSON.stringify(input.files),
          JSON.stringify(input.meta),
          input.postedDataHash,
          JSON.stringify(input.spamLog),
          input.demoMode,
          input.createdAt,
          input.updatedAt,
        ],
      );
      return toSubmission(row!);
    },
    get: async (id) => {
      const [row] = await db.sql.query(`SELECT ${SUBMISSION_COLUMNS} FROM ${t} WHERE id = $1::bigint`, [idValue(id)]);
      return row ? toSubmission(row) : null;
    },
    list: async (query) => {
      const params = new Params();
      const where = ['TRUE'];
      if (query.formId !== undefined) where.push(`form_id = ${params.add(query.formId, 'bigint')}`);
      if (query.status !== undefined) where.push(`status = ${params.add(query.status, 'text')}`);
      const filter = where.join(' AND ');
      const countValues = [...params.values];
      const rows = await db.sql.query(
        `SELECT ${SUBMISSION_COLUMNS} FROM ${t} WHERE ${filter} ORDER BY id DESC LIMIT ${params.add(query.limit, 'bigint')} OFFSET ${params.add(query.offset, 'bigint')}`,
        params.values,
      );
      const [count] = await db.sql.query<{ n: unknown }>(`SELECT count(*) AS n FROM ${t} WHERE ${filter}`, countValues);
      return { items: rows.map(toSubmission), total: Number(count?.n ?? 0) };
    },
    update: async (id, patch) => {
      const params = new Params();
      const key = params.add(id, 'bigint');
      const sets: string[] = [];
      if (patch.status !== undefined) sets.push(`status = ${params.add(patch.status, 'text')}`);
      if (patch.message !== undefined) sets.push(`message = ${params.add(patch.message, 'text')}`);
      if (patch.updatedAt !== undefined) sets.push(`updated_at = ${params.add(patch.updatedAt, 'bigint')}`);
      const sql = sets.length
        ? `UPDATE ${t} SET ${sets.join(', ')} WHERE id = ${key} RETURNING ${SUBMISSION_COLUMNS}`
        : `SELECT ${SUBMISSION_COLUMNS} FROM ${t} WHERE id = ${key}`;
      const [row] = await db.sql.query(sql, params.values);
      return row ? toSubmission(row) : null;
    },
    delete: async (id) => (await db.sql.query(`DELETE FROM ${t} WHERE id = $1::bigint RETURNING id`, [idValue(id)])).length > 0,
    deleteForForm: async (formId) => (await db.sql.query(`DELETE FROM ${t} WHERE form_id = $1::bigint RETURNING ${SUBMISSION_COLUMNS}`, [idValue(formId)])).map(toSubmission),
  };
}

export function outboxRepository(db: Db): OutboxRepository {
  const t = db.t.contactFormOutbox;
  return {
    create: async (input: NewOutboxRecord) => {
      const [row] = await db.sql.query(
        `INSERT INTO ${t} (submission_id, template, message, status, error, attempts, transport, created_at, sent_at)
          VALUES ($1::bigint, $2, $3::jsonb, $4, $5, $6::integer, $7, $8::bigint, $9::bigint)
          RETURNING ${OUTBOX_COLUMNS}`,
        [input.submissionId, input.template, JSON.stringify(input.message), input.status, input.error, input.attempts, input.transport, input.createdAt, input.sentAt],
      );
      return toOutbox(row!);
    },
    get: async (id) => {
      const [row] = await db.sql.query(`SELECT ${OUTBOX_COLUMNS} FROM ${t} WHERE id = $1::bigint`, [idValue(id)]);
      return row ? toOutbox(row) : null;
    },
    list: async (query) => {
      const params = new Params();
      const where = ['TRUE'];
      if (query.submissionId !== undefined) where.push(`submission_id = ${params.add(query.submissionId, 'bigint')}`);
      if (query.status !== undefined) where.push(`status = ${params.add(query.status, 'text')}`);
      const filter = where.join(' AND ');
      const countValues = [...params.values];
      const rows = await db.sql.query(
        `SELECT ${OUTBOX_COLUMNS} FROM ${t} WHERE ${filter} ORDER BY id ASC LIMIT ${params.add(query.limit, 'bigint')} OFFSET ${params.add(query.offset, 'bigint')}`,
        params.values,
      );
      const [count] = await db.sql.query<{ n: unknown }>(`SELECT count(*) AS n FROM ${t} WHERE ${filter}`, countValues);
      return { items: rows.map(toOutbox), total: Number(count?.n ?? 0) };
    },
    update: async (id, patch) => {
      const params = new Params();
      const key = params.add(id, 'bigint');
      const sets: string[] = [];
      if (patch.status !== undefined) sets.push(`status = ${params.add(patch.status, 'text')}`);
      if (patch.error !== undefined) sets.push(`error = ${params.add(patch.error, 'text')}`);
      if (patch.attempts !== undefined) sets.push(`attempts = ${params.add(patch.attempts, 'integer')}`);
      if (patch.transport !== undefined) sets.push(`transport = ${params.add(patch.transport, 'text')}`);
      if (patch.sentAt !== undefined) sets.push(`sent_at = ${params.add(patch.sentAt, 'bigint')}`);
      const sql = sets.length ? `UPDATE ${t} SET ${sets.join(', ')} WHERE id = ${key} RETURNING ${OUTBOX_COLUMNS}` : `SELECT ${OUTBOX_COLUMNS} FROM ${t} WHERE id = ${key}`;
      const [row] = await db.sql.query(sql, params.values);
      return row ? toOutbox(row) : null;
    },
  };
}
