import qs from 'qs';
import { urlEncode } from './encoding.js';

/*
 * Query strings compared and passed on the way Redirection does (Red_Url_Query): parsed like PHP (`a[]=1`
 * lists, `a[b]=1` maps, a repeated key keeps its last value), a bare `k` kept as a key without value.
 */

type QueryValue = string | null | QueryParams | QueryValue[];
export interface QueryParams {
  [key: string]: QueryValue;
}

/** Redirection stops comparing nested parameters below this depth. */
const RECURSION_LIMIT = 10;

/** The query part of a URL: after the first `?`, or after an escaped `\?` that comes first. */
export function queryAfter(url: string): string {
  const q = url.indexOf('?');
  if (q === -1) return '';
  const escaped = url.indexOf('\\?');
  if (escaped !== -1 && escaped < q) return url.slice(escaped + 2);
  return url.slice(q + 1);
}

export function parseQuery(query: string): QueryParams {
  if (!query) return Object.create(null) as QueryParams;
  return qs.parse(query, {
    depth: RECURSION_LIMIT,
    arrayLimit: 100,
    parameterLimit: 1000,
    duplicates: 'last',
    allowPrototypes: false,
    plainObjects: true,
    strictNullHandling: true,
  }) as QueryParams;
}

const isMap = (v: QueryValue | undefined): v is QueryParams | QueryValue[] => v !== null && typeof v === 'object';
const scalar = (v: QueryValue | undefined) => (v === null ? '' : v);

/** The parameters of `source` that `target` has with the same value (Red_Url_Query::get_query_same). */
function sameParams(source: QueryParams | QueryValue[], target: QueryParams | QueryValue[], depth = 0): number {
  if (depth > RECURSION_LIMIT) return 0;
  let same = 0;
  for (const [key, value] of Object.entries(source)) {
    const other = (target as Record<string, QueryValue>)[key];
    if (other === undefined) continue;
    if (isMap(value) && isMap(other)) {
      if (sameParams(value, other, depth + 1) === Object.keys(value).length) same++;
    } else if (!isMap(value) && !isMap(other) && scalar(value) === scalar(other)) {
      same++;
    }
  }
  return same;
}

/** The parameters of `source` missing from `target` or different there (Red_Url_Query::get_query_diff). */
function diffParams(source: QueryParams | QueryValue[], target: QueryParams | QueryValue[], depth = 0): QueryParams {
  const diff = Object.create(null) as QueryParams;
  if (depth > RECURSION_LIMIT) return diff;
  for (const [key, value] of Object.entries(source)) {
    const other = (target as Record<string, QueryValue>)[key];
    if (other !== undefined && isMap(value) && isMap(other)) {
      const nested = diffParams(value, other, depth + 1);
      if (Object.keys(nested).length) diff[key] = nested;
    } else if (other === undefined || isMap(value) || isMap(other) || scalar(value) !== scalar(other)) {
      diff[key] = value;
    }
  }
  return diff;
}

export interface QueryMatchOptions {
  ignoreCase: boolean;
  /** `ignore` and `pass` allow extra request parameters. */
  allowExtra: boolean;
}

/** Whether the request URL's query satisfies the source URL's query (Red_Url_Query::is_match). */
export function queryMatches(sourceUrl: string, requestUrl: string, options: QueryMatchOptions): boolean {
  const lower = (s: string) => (options.ignoreCase ? s.toLowerCase() : s);
  const sourceQuery = queryAfter(lower(sourceUrl));
  const requestQuery = queryAfter(lower(requestUrl));
  const source = parseQuery(sourceQuery);
  // A source query that cannot be parsed into parameters is compared as it is written.
  if (Object.keys(source).length === 0 && sourceUrl.includes('?')) return requestQuery === sourceQuery;
  const request = parseQuery(requestQuery);
  if (sameParams(source, request) !== Object.keys(source).length) return false;
  if (options.allowExtra) return true;
  return Object.keys(diffParams(source, request)).length === 0 && Object.keys(diffParams(request, source)).length === 0;
}

function buildPairs(params: QueryParams | QueryValue[], prefix: string | null, out: string[]): void {
  for (const [key, value] of Object.entries(params)) {
    const name = prefix === null ? urlEncode(key) : `${prefix}[]`;
    if (value === null) out.push(name);
    else if (typeof value === 'object') buildPairs(value, name, out);
    else out.push(`${name}=${urlEncode(value)}`);
  }
}

/** PHP http_build_query, with list keys written `[]` and bare keys kept bare (Red_Url_Query::build_url). */
export function buildQuery(params: QueryParams): string {
  const out: string[] = [];
  buildPairs(params, null, out);
  return out.join('&');
}

/** Appends parameters to a URL, before its fragment. */
function appendQuery(url: string, params: QueryParams): string {
  const query = buildQuery(params);
  if (!query) return url;
  const hash = url.indexOf('#');
  const base = hash === -1 ? url : url.slice(0, hash);
  const fragment = hash === -1 ? '' : url.slice(hash);
  return `${base}${base.includes('?') ? '&' : '?'}${query}${fragment}`;
}

/**
 * Query `pass`: the request's parameters added to the target, those the target already has never overridden
 * (keys compared case-insensitively when the redirect ignores case; values keep the case they were sent in).
 */
export function passQuery(target: string, requestUrl: string, ignoreCase: boolean): string {
  const own = parseQuery(queryAfter(target.split('#')[0]!));
  const ownKeys = new Set(Object.keys(own).map((k) => (ignoreCase ? k.toLowerCase() : k)));
  const request = parseQuery(queryAfter(requestUrl));
  const extra = Object.create(null) as QueryParams;
  for (const [key, value] of Object.entries(request)) {
    if (!ownKeys.has(ignoreCase ? key.toLowerCase() : key)) extra[key] = value;
  }
  return appendQuery(target, extra);
}
