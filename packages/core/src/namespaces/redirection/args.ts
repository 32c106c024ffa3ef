import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import type { ArgSpec } from '../../args/spec.js';
import { capOverride, hasCap } from '../../auth/principal.js';
import type { ApiRequest } from '../../http/api-request.js';
import { coreErrors } from '../../http/errors.js';
import { intval, isPlainObject } from '../../http/php.js';
import type { LogFilter, RedirectFilter, GroupFilter } from '../../store/redirection.js';
import { sanitizeTextField } from '../../text/sanitize.js';
import { ACTION_TYPES, ERROR_CODES, LIMITS, LOG_METHODS, MATCH_TYPES, REDIRECT_CODES } from './constants.js';
import { redirectionErrors } from './errors.js';

/**
 * A Redirection capability check (Redirection_Capabilities::has_access): each capability maps to
 * `manage_options` unless the user's own capabilities grant or deny that very capability (the plugin's
 * `redirection_capability_check` filter, as data).
 */
function redirectionCan(request: ApiRequest, ...caps: string[]): boolean {
  const principal = request.principal;
  if (!principal) return false;
  return caps.some((cap) => {
    const override = capOverride(principal, cap);
    return override !== undefined ? override : hasCap(principal, 'manage_options');
  });
}

export const allow =
  (...caps: string[]) =>
  (request: ApiRequest) =>
    redirectionCan(request, ...caps);

function filterValidator(fields: readonly string[]) {
  return (value: unknown) => {
    if (!isPlainObject(value) && !Array.isArray(value)) return redirectionErrors.filterNotArray();
    for (const key of Object.keys(value)) if (!fields.includes(key)) return redirectionErrors.filterNotSupported(key);
    return true;
  };
}

/** The list arguments every Redirection list and bulk route declares, as the plugin registers them. */
export function listArgs(filters: readonly string[], orders: readonly string[]): Record<string, ArgSpec> {
  return {
    filterBy: { description: 'Field to filter by', validate: filterValidator(filters), sanitize: false, in: 'query' },
    orderby: { description: 'Field to order results by', type: 'string', enum: orders, in: 'query' },
    direction: { description: 'Direction of ordered results', type: 'string', default: 'desc', enum: ['asc', 'desc'], in: 'query' },
    per_page: { description: 'Number of results per page', type: 'integer', default: 25, minimum: 5, maximum: 200, in: 'query' },
    page: { description: 'Page offset', type: 'integer', minimum: 0, default: 0, in: 'query' },
  };
}

export function itemsArg(description: string): ArgSpec {
  return { description, type: 'array', items: { description: 'Item ID', type: ['string', 'number'] } as ArgSpec['items'] };
}

export interface Paging {
  direction: 'asc' | 'desc';
  offset: number;
  limit: number;
}

export function paging(request: ApiRequest): Paging {
  const limit = Math.min(200, Math.max(5, intval(request.get('per_page') ?? 25)));
  const page = Math.max(0, intval(request.get('page') ?? 0));
  return { direction: request.get('direction') === 'asc' ? 'asc' : 'desc', offset: page * limit, limit };
}

/** The filterBy object's own entries, each value as sanitised text (non-text values count as empty). */
function filterEntries(request: ApiRequest): Map<string, string> {
  const raw = request.get('filterBy');
  const out = new Map<string, string>();
  if (!isPlainObject(raw)) return out;
  for (const [key, value] of Object.entries(raw)) {
    const text = typeof value === 'string' || typeof value === 'number' ? String(value) : '';
    out.set(key, sanitizeTextField(text.slice(0, LIMITS.filterValue)));
  }
  return out;
}

const YEAR_MS = 365 * 86_400_000;
const MONTH_MS = 30 * 86_400_000;

/** Red_Item_Filters. */
export function redirectFilter(request: ApiRequest): RedirectFilter {
  const filter: RedirectFilter = {};
  for (const [key, value] of filterEntries(request)) {
    switch (key) {
      case 'status':
        filter.status = value === 'enabled' ? 'enabled' : 'disabled';
        break;
      case 'url-match':
        filter.regex = value === 'regular';
        break;
      case 'id':
        filter.id = intval(value);
        break;
      case 'group':
        filter.groupId = intval(value);
        break;
      case 'match':
        if ((MATCH_TYPES as readonly string[]).includes(value)) filter.matchType = value;
        break;
      case 'action':
        if ((ACTION_TYPES as readonly string[]).includes(value)) filter.actionType = value;
        break;
      case 'http': {
        const code = intval(value);
        if (REDIRECT_CODES.includes(code) || ERROR_CODES.includes(code)) filter.actionCode = code;
        break;
      }
      case 'access':
        if (value === 'year') filter.lastAccessBefore = request.site.now() - YEAR_MS;
        else if (value === 'month') filter.lastAccessBefore = request.site.now() - MONTH_MS;
        else filter.neverAccessed = true;
        break;
      case 'url':
      case 'title':
      case 'target':
        filter[key] = value;
        break;
    }
  }
  return filter;
}

export function redirectOrder(request: ApiRequest): 'id' | 'url' | 'hits' | 'lastAccess' | 'position' {
  const order = request.get('orderby');
  if (order === 'source') return 'url';
  if (order === 'last_count') return 'hits';
  if (order === 'last_access') return 'lastAccess';
  if (order === 'position') return 'position';
  return 'id';
}

export function groupFilter(request: ApiRequest): GroupFilter {
  const filter: GroupFilter = {};
  for (const [key, value] of filterEntries(request)) {
    if (key === 'status') filter.status = value === 'enabled' ? 'enabled' : 'disabled';
    else if (key === 'module') filter.moduleId = intval(value);
    else if (key === 'name') filter.name = value;
  }
  return filter;
}

function normalIp(value: string): string | null {
  return isIP(value) ? ipaddr.process(value).toString() : null;
}

/** Red_Log_Filters (the 404 log knows neither `target` nor `redirect_by`). */
export function logFilter(request: ApiRequest, notFound: boolean): LogFilter {
  const filter: LogFilter = {};
  const entries = filterEntries(request);
  for (const [key, value] of entries) {
    switch (key) {
      case 'ip': {
        const ip = normalIp(value);
        if (ip) filter.ip = ip;
        else filter.ipContains = value;
        break;
      }
      case 'url-exact':
        filter.urlExact = value;
        break;
      case 'url':
        if (!entries.has('url-exact')) filter.url = value;
        break;
      case 'referrer':
      case 'agent':
      case 'domain':
        filter[key] = value;
        break;
      case 'http':
        filter.httpCode = intval(value);
        break;
      case 'method': {
        const method = value.toUpperCase();
        if (LOG_METHODS.includes(method)) filter.method = method;
        break;
      }
      case 'target':
        if (!notFound) filter.target = value;
        break;
      case 'redirect_by':
        if (!notFound) filter.redirectBy = value;
        break;
    }
  }
  return filter;
}

/** The ids of a bulk request (`items`: a list, a comma-separated string or one value), bounded. */
export function bulkItems(request: ApiRequest): string[] | null {
  const items = request.get('items');
  if (items === undefined) return null;
  const list = (Array.isArray(items) ? items : String(items).split(',')).map((item) => String(item).trim()).filter((item) => item !== '');
  if (list.length > LIMITS.bulkItems) {
    throw coreErrors.invalidParams({ items: `items must contain at most ${LIMITS.bulkItems} items.` }, {});
  }
  return list;
}

export function isGlobal(request: ApiRequest): boolean {
  const value = request.get('global');
  return value === true || value === 'true' || value === '1' || value === 1;
}
