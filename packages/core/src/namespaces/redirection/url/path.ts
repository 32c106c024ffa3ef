import { rawUrlEncode, urlDecode } from './encoding.js';
import { buildQuery, parseQuery, queryAfter } from './query.js';

/** The part of a URL before its query: before the first `?`, or before an escaped `\?` that comes first. */
function beforeQuery(url: string): string {
  const q = url.indexOf('?');
  const escaped = url.indexOf('\\?');
  if (escaped !== -1 && (q === -1 || escaped < q)) return url.slice(0, escaped);
  return q === -1 ? url : url.slice(0, q);
}

/** The path of a URL (scheme and host dropped even when the path has double slashes), URL-decoded. */
function pathComponent(url: string): string {
  let path = url;
  if (/^https?:\/\//.test(url)) {
    const rest = url.slice(url.indexOf('://') + 3).split('/');
    path = `/${rest.slice(1).join('/')}`;
  }
  return urlDecode(beforeQuery(path));
}

/** One trailing slash removed; `/` stays. */
function withoutTrailingSlash(path: string): string {
  return path === '/' ? path : path.replace(/\/$/, '');
}

/** Whether two URLs' paths are equal under the flags (Red_Url_Path::is_match). */
export function pathMatches(sourceUrl: string, requestUrl: string, flags: { ignoreTrailing: boolean; ignoreCase: boolean }): boolean {
  let source = pathComponent(sourceUrl);
  let target = pathComponent(requestUrl);
  if (flags.ignoreTrailing) {
    source = withoutTrailingSlash(source);
    target = withoutTrailingSlash(target);
  }
  if (flags.ignoreCase) {
    source = source.toLowerCase();
    target = target.toLowerCase();
  }
  return source === target;
}

const KEPT = ['/', ':', '[', ']', '@', '~', ',', '(', ')', ';'];
const KEPT_ENCODED = new Map(KEPT.map((ch) => [rawUrlEncode(ch), ch]));

/**
 * The lookup key of a URL (Red_Url_Match::get_url): its path without query and one trailing slash,
 * percent-encoded (but for `/ : [ ] @ ~ , ( ) ;`) and lower-cased; `/` when empty.
 */
export function matchUrl(url: string): string {
  // A plain ASCII path without anything to decode or encode is its own key, lower-cased.
  if (/^\/[A-Za-z0-9\-_.~/:@,;()[\]]*(\?|$)/.test(url) && !url.includes('\\?')) {
    const q = url.indexOf('?');
    const path = q === -1 ? url : url.slice(0, q);
    return (path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path).toLowerCase() || '/';
  }
  const path = rawUrlEncode(withoutTrailingSlash(pathComponent(url))).replace(/%(2F|3A|5B|5D|40|2C|28|29|3B)/g, (code) => KEPT_ENCODED.get(code) ?? code);
  return path.toLowerCase() || '/';
}

/** The lookup key with the URL's query (flag_query `exactorder`). */
export function matchUrlWithQuery(url: string): string {
  const query = buildQuery(parseQuery(queryAfter(url)));
  return query ? `${matchUrl(url)}?${query}` : matchUrl(url);
}
