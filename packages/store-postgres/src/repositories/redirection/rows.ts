import type { NewRedirect, RedirectFilter, RedirectGroupRecord, RedirectLogRecord, RedirectRecord } from '@siterest/core';
import { containsPattern } from '../../sql/like.js';
import type { Params } from '../../sql/params.js';
import type { Db } from '../db.js';

/** jsonb travels as text both ways, whatever JSON parser the app configured on its driver. */
export const json = (value: unknown): string | null => (value === null || value === undefined ? null : JSON.stringify(value));
const parse = (text: unknown): any => (text === null || text === undefined ? null : JSON.parse(String(text)));

export const REDIRECT_COLUMNS = `id, url, match_url, match_data::text AS match_data, regex, position, group_id, status, action_type, action_code,
  action_data::text AS action_data, match_type, title, hits, last_access`;

export function toRedirect(row: Record<string, unknown>): RedirectRecord {
  return {
    id: Number(row.id),
    url: String(row.url),
    matchUrl: String(row.match_url),
    matchData: parse(row.match_data),
    regex: row.regex === true,
    position: Number(row.position),
    groupId: Number(row.group_id),
    status: row.status === 'enabled' ? 'enabled' : 'disabled',
    actionType: String(row.action_type),
    actionCode: Number(row.action_code),
    actionData: parse(row.action_data),
    matchType: String(row.match_type),
    title: row.title === null ? null : String(row.title),
    hits: Number(row.hits),
    lastAccess: Number(row.last_access),
  };
}

export function toGroup(row: Record<string, unknown>): RedirectGroupRecord {
  return { id: Number(row.id), name: String(row.name), moduleId: Number(row.module_id), status: row.status === 'enabled' ? 'enabled' : 'disabled', position: Number(row.position) };
}

export const LOG_COLUMNS = `id, created, url, domain, ip, agent, referrer, http_code, request_method, request_data::text AS request_data, sent_to, redirection_id, redirect_by`;

export function toLog(row: Record<string, unknown>): RedirectLogRecord {
  return {
    id: Number(row.id),
    created: Number(row.created),
    url: String(row.url),
    domain: String(row.domain),
    ip: String(row.ip),
    agent: String(row.agent),
    referrer: row.referrer === null ? null : String(row.referrer),
    httpCode: Number(row.http_code),
    requestMethod: String(row.request_method),
    requestData: parse(row.request_data),
    sentTo: String(row.sent_to),
    redirectionId: Number(row.redirection_id),
    redirectBy: String(row.redirect_by),
  };
}

/** The column values of a redirect, in REDIRECT_INSERT_COLUMNS order, each bound as a parameter. */
export const REDIRECT_INSERT_COLUMNS =
  'url, match_url, match_data, regex, position, group_id, status, action_type, action_code, action_data, match_type, title, hits, last_access';

export function redirectValues(r: NewRedirect, params: Params, position: string): string {
  return [
    params.add(r.url, 'text'),
    params.add(r.matchUrl, 'text'),
    `${params.add(json(r.matchData), 'text')}::jsonb`,
    params.add(r.regex, 'boolean'),
    position,
    params.add(r.groupId, 'bigint'),
    params.add(r.status, 'text'),
    params.add(r.actionType, 'text'),
    params.add(r.actionCode, 'integer'),
    `${params.add(json(r.actionData), 'text')}::jsonb`,
    params.add(r.matchType, 'text'),
    params.add(r.title, 'text'),
    params.add(r.hits, 'bigint'),
    params.add(r.lastAccess, 'bigint'),
  ].join(', ');
}

/** WHERE conditions of a redirect filter over alias `i` (items). */
export function redirectWhere(db: Db, f: RedirectFilter, params: Params): string {
  const where: string[] = ['true'];
  if (f.ids) where.push(`i.id = ANY(${params.add([...f.ids], 'bigint[]')})`);
  if (f.status !== undefined) where.push(`i.status = ${params.add(f.status, 'text')}`);
  if (f.regex !== undefined) where.push(`i.regex = ${params.add(f.regex, 'boolean')}`);
  if (f.id !== undefined) where.push(`i.id = ${params.add(f.id, 'bigint')}`);
  if (f.groupId !== undefined) where.push(`i.group_id = ${params.add(f.groupId, 'bigint')}`);
  if (f.moduleId !== undefined) {
    const enabled = f.enabledGroups ? ` AND g.status = 'enabled'` : '';
    where.push(`EXISTS (SELECT 1 FROM ${db.t.redirection.groups} g WHERE g.id = i.group_id AND g.module_id = ${params.add(f.moduleId, 'integer')}${enabled})`);
  }
  if (f.matchType !== undefined) where.push(`i.match_type = ${params.add(f.matchType, 'text')}`);
  if (f.actionType !== undefined) where.push(`i.action_type = ${params.add(f.actionType, 'text')}`);
  if (f.actionCode !== undefined) where.push(`i.action_code = ${params.add(f.actionCode, 'integer')}`);
  if (f.lastAccessBefore !== undefined) where.push(`i.last_access < ${params.add(f.lastAccessBefore, 'bigint')}`);
  if (f.neverAccessed) where.push('i.last_access = 0');
  if (f.url !== undefined) where.push(`i.url ILIKE ${params.add(containsPattern(f.url), 'text')}`);
  if (f.title !== undefined) where.push(`coalesce(i.title, '') ILIKE ${params.add(containsPattern(f.title), 'text')}`);
  if (f.target !== undefined) where.push(`coalesce(i.action_data::text, '') ILIKE ${params.add(containsPattern(f.target), 'text')}`);
  return where.join(' AND ');
}
