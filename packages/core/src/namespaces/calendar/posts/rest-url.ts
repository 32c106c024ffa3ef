import { listClosing } from '../../../fragment-cache.js';
import { memoize } from '../../../util/memo.js';
import { phpUrlDecode } from '../../../http/query.js';

/*
 * TEC builds archive URLs with WordPress's add_query_arg: values added from an array are written as they are
 * (a date keeps its space), but every later call re-parses the URL and URL-encodes what was already there
 * (`2026-11-20+00%3A00%3A00`). Clients compare these URLs, so the same steps are reproduced.
 */
export type QueryValue = string | number | boolean | null | undefined | ReadonlyArray<string | number>;

/** PHP urlencode: letters, digits and `-_.` stay, spaces become `+`. */
export function phpUrlencode(value: string): string {
  return encodeURIComponent(value)
    .replace(/[!'()*~]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, '+');
}

function render(value: QueryValue): string | null {
  if (value === null || value === undefined || value === false) return null;
  if (value === true) return '1';
  if (Array.isArray(value)) return value.join(',');
  return String(value);
}

function build(pairs: Array<[string, string]>): string {
  return pairs.map(([k, v]) => `${k}=${v}`).join('&').replace(/=(&|$)/g, '$1');
}

function split(url: string): { base: string; pairs: Array<[string, string]> } {
  const q = url.indexOf('?');
  if (q === -1) return { base: url, pairs: [] };
  const pairs = url
    .slice(q + 1)
    .split('&')
    .filter(Boolean)
    .map((part): [string, string] => {
      const eq = part.indexOf('=');
      return eq === -1 ? [part, ''] : [part.slice(0, eq), part.slice(eq + 1)];
    });
  return { base: url.slice(0, q), pairs };
}

/** add_query_arg( array, url ) with the URL's existing values re-encoded and the new ones written raw. */
export function addQueryArgs(url: string, args: Array<[string, QueryValue]>, options: { reencode: boolean } = { reencode: true }): string {
  const { base, pairs } = split(url);
  const existing = options.reencode ? pairs.map(([k, v]): [string, string] => [k, phpUrlencode(phpUrlDecode(v))]) : pairs;
  const map = new Map(existing);
  for (const [key, value] of args) {
    const rendered = render(value);
    if (rendered === null) map.delete(key);
    else map.set(key, rendered);
  }
  const query = build([...map]);
  return query ? `${base}?${query}` : base;
}

/** `query` with `key=value` appended, as add_query_arg writes it; unchanged for a value add_query_arg drops. */
function appended(query: string, key: string, value: QueryValue): string {
  const rendered = render(value);
  return rendered === null ? query : `${query}${query ? '&' : ''}${key}=${rendered}`;
}

/** A bare base URL with the query built by `appended`: add_query_arg's preg_replace('#=(&|$)#', '$1') applied. */
function withBuiltQuery(base: string, query: string): string {
  // Where there is anything for it to do.
  if (query.includes('=&') || query.endsWith('=')) query = query.replace(/=(&|$)/g, '$1');
  return query ? `${base}?${query}` : base;
}

/** The first add_query_arg on a bare base URL: nothing to re-encode yet. */
export function withQuery(base: string, args: Array<[string, QueryValue]>): string {
  if (base.includes('?')) return addQueryArgs(base, args, { reencode: false });
  // Nothing to merge with: the pairs in order, as build() writes them (the keys given are distinct).
  let query = '';
  for (let i = 0; i < args.length; i++) query = appended(query, args[i]![0], args[i]![1]);
  return withBuiltQuery(base, query);
}

/**
 * withQuery with the keys and the values apart: a list names the same keys on every request, kept in one constant,
 * and its values come in one array instead of a pair each.
 */
export function withQueryValues(base: string, keys: readonly string[], values: readonly QueryValue[]): string {
  if (base.includes('?')) return withQuery(base, keys.map((key, i): [string, QueryValue] => [key, values[i]]));
  let query = '';
  for (let i = 0; i < keys.length; i++) query = appended(query, keys[i]!, values[i]);
  return withBuiltQuery(base, query);
}

/**
 * Longest key (a page number and a URL) whose paging URL is kept. A client picks the URL (a search of any length,
 * up to the server's header limit): kept, a thousand long ones could hold tens of megabytes.
 */
const MAX_KEPT_KEY = 1024;

// Every list answer links its neighbouring pages: the same few URLs, rebuilt (decoded and encoded again) each time.
export const nextPageUrl = memoize(
  (url: string, page: number): string => addQueryArgs(addQueryArgs(url, [['page', null]]), [['page', page + 1]]),
  (url, page) => `${page} ${url}`,
  500,
  MAX_KEPT_KEY,
);

export const previousPageUrl = memoize(
  (url: string, page: number): string => {
    const without = addQueryArgs(url, [['page', null]]);
    return page === 2 ? without : addQueryArgs(without, [['page', page - 1]]);
  },
  (url, page) => `${page} ${url}`,
  500,
  MAX_KEPT_KEY,
);

/**
 * The paging part of a post archive (events, venues, organizers): `next_rest_url` while a later page has items,
 * `previous_rest_url` from page 2 while the previous page is not past the end, and the page count.
 */
function archivePaging(
  restUrl: string,
  page: number,
  perPage: number,
  total: number,
): { links: { next_rest_url?: string; previous_rest_url?: string }; totalPages: number } {
  const links: { next_rest_url?: string; previous_rest_url?: string } = {};
  if (page * perPage < total) links.next_rest_url = nextPageUrl(restUrl, page);
  if (page > 1 && (page - 2) * perPage < total) links.previous_rest_url = previousPageUrl(restUrl, page);
  return { links, totalPages: total > 0 ? Math.ceil(total / perPage) : 0 };
}

/** The keys a post archive answer has after its list, in TEC's order, and their closing piece (see listClosing). */
export interface ArchiveEnding {
  readonly after: Readonly<{ rest_url: string; next_rest_url?: string; previous_rest_url?: string; total: number; total_pages: number }>;
  /** The closing's UTF-8 bytes: what the answer's last piece is sent as (see shareJoinedList). */
  readonly closing: Buffer;
  readonly totalPages: number;
}

/**
 * archivePaging with the answer's keys after the list and their JSON, as UTF-8 bytes: the same few pages of the same
 * lists are asked again and again, and this part of their answer was encoded anew each time (its URLs escaped too).
 * Shared between requests: spread, never changed.
 */
export const archiveEnding = memoize(
  (restUrl: string, page: number, perPage: number, total: number): ArchiveEnding => {
    const { links, totalPages } = archivePaging(restUrl, page, perPage, total);
    const after = Object.freeze({ rest_url: restUrl, ...links, total, total_pages: totalPages });
    return Object.freeze({ after, closing: Buffer.from(listClosing(after)), totalPages });
  },
  (restUrl, page, perPage, total) => `${page} ${perPage} ${total} ${restUrl}`,
  500,
  MAX_KEPT_KEY,
);
