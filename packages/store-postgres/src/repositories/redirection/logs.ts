import type { LogFilter, RedirectLogRepository } from '@siterest/core';
import { containsPattern } from '../../sql/like.js';
import { Params } from '../../sql/params.js';
import type { Db } from '../db.js';
import { countOf, pageWithTotal } from '../paging.js';
import { LOG_COLUMNS, json, toLog } from './rows.js';

const FIELDS = { url: 'l.url', ip: 'l.ip', agent: 'l.agent' } as const;

function logWhere(f: LogFilter, params: Params): string {
  const where = ['true'];
  const like = (column: string, value: string) => where.push(`${column} ILIKE ${params.add(containsPattern(value), 'text')}`);
  if (f.ids) where.push(`l.id = ANY(${params.add([...f.ids], 'bigint[]')})`);
  if (f.ip !== undefined) where.push(`l.ip = ${params.add(f.ip, 'text')}`);
  if (f.ipContains !== undefined) like('l.ip', f.ipContains);
  if (f.urlExact !== undefined) where.push(`l.url = ${params.add(f.urlExact, 'text')}`);
  if (f.url !== undefined) like('l.url', f.url);
  if (f.referrer !== undefined) like(`coalesce(l.referrer, '')`, f.referrer);
  if (f.agent !== undefined) like('l.agent', f.agent);
  if (f.domain !== undefined) like('l.domain', f.domain);
  if (f.target !== undefined) like('l.sent_to', f.target);
  if (f.method !== undefined) where.push(`l.request_method = ${params.add(f.method, 'text')}`);
  if (f.httpCode !== undefined) where.push(`l.http_code = ${params.add(f.httpCode, 'integer')}`);
  if (f.redirectBy !== undefined) where.push(`l.redirect_by = ${params.add(f.redirectBy, 'text')}`);
  if (f.fieldIn) where.push(`${FIELDS[f.fieldIn.field]} = ANY(${params.add([...f.fieldIn.values], 'text[]')})`);
  return where.join(' AND ');
}

/** The redirect log or the 404 log: the same columns in a table of their own. */
export function logRepository(db: Db, table: string): RedirectLogRepository {
  return {
    insert: async (rows) => {
      if (!rows.length) return;
      const col = <K extends keyof (typeof rows)[number]>(key: K) => rows.map((r) => r[key]);
      await db.sql.query(
        `INSERT INTO ${table} (created, url, domain, ip, agent, referrer, http_code, request_method, request_data, sent_to, redirection_id, redirect_by)
         SELECT created, url, domain, ip, agent, referrer, http_code, request_method, request_data::jsonb, sent_to, redirection_id, redirect_by
         FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::integer[], $8::text[], $9::text[], $10::text[], $11::bigint[], $12::text[])
           WITH ORDINALITY AS v(created, url, domain, ip, agent, referrer, http_code, request_method, request_data, sent_to, redirection_id, redirect_by, n)
         ORDER BY n`,
        [
          col('created'),
          col('url'),
          col('domain'),
          col('ip'),
          col('agent'),
          col('referrer'),
          col('httpCode'),
          col('requestMethod'),
          rows.map((r) => json(r.requestData)),
          col('sentTo'),
          col('redirectionId'),
          col('redirectBy'),
        ],
      );
    },
    list: async (query) => {
      const params = new Params();
      const where = logWhere(query.filter, params);
      const count = params.values.length;
      const dir = query.direction === 'asc' ? 'ASC' : 'DESC';
      const order = query.orderBy === 'id' ? `l.id ${dir}` : `${FIELDS[query.orderBy]} COLLATE "C" ${dir}, l.id ${dir}`;
      const limit = params.add(query.limit, 'bigint');
      const offset = params.add(query.offset, 'bigint');
      return pageWithTotal(
        query.offset,
        query.limit,
        async () => (await db.sql.query(`SELECT ${LOG_COLUMNS} FROM ${table} l WHERE ${where} ORDER BY ${order} LIMIT ${limit} OFFSET ${offset}`, params.values)).map(toLog),
        () => countOf(db.sql.query(`SELECT count(*) AS n FROM ${table} l WHERE ${where}`, params.values.slice(0, count))),
      );
    },
    groups: async (query) => {
      const params = new Params();
      const where = logWhere(query.filter, params);
      const count = params.values.length;
      const field = FIELDS[query.field];
      const dir = query.direction === 'asc' ? 'ASC' : 'DESC';
      const limit = params.add(query.limit, 'bigint');
      const offset = params.add(query.offset, 'bigint');
      const rows = await db.sql.query<{ value: string; count: string }>(
        `SELECT ${field} AS value, count(*) AS count FROM ${table} l WHERE ${where} GROUP BY ${field}
         ORDER BY count(*) ${dir}, ${field} COLLATE "C" ASC LIMIT ${limit} OFFSET ${offset}`,
        params.values,
      );
      const total = await countOf(db.sql.query(`SELECT count(DISTINCT ${field}) AS n FROM ${table} l WHERE ${where}`, params.values.slice(0, count)));
      return { items: rows.map((r) => ({ value: String(r.value), count: Number(r.count) })), total };
    },
    delete: async (filter) => {
      const params = new Params();
      const where = logWhere(filter, params);
      return (await db.sql.query(`DELETE FROM ${table} l WHERE ${where} RETURNING l.id`, params.values)).length;
    },
    expire: async (before, limit) =>
      (
        await db.sql.query(`DELETE FROM ${table} WHERE id IN (SELECT id FROM ${table} WHERE created < $1 ORDER BY id LIMIT $2) RETURNING id`, [before, limit])
      ).length,
  };
}
