import { validateHeaderName, validateHeaderValue } from 'node:http';
import { memoize } from '../util/memo.js';

/**
 * Header pairs checked once when made and shared by every answer that sends them (frozen): the pipeline checks
 * each header of an answer before it leaves (see handleRequest) and skips these.
 */
const checkedPairs = new WeakSet<object>();

/** Whether a header pair is one of the checked, shared ones. */
export function isCheckedHeader(pair: readonly [string, string]): boolean {
  return checkedPairs.has(pair);
}

function checkedHeader(name: string, value: string): [string, string] {
  validateHeaderName(name);
  validateHeaderValue(name, value);
  const pair = Object.freeze([name, value] as [string, string]);
  checkedPairs.add(pair);
  return pair as [string, string];
}

/**
 * Headers WordPress sends on every REST response, before the response's own: the same few per API root and
 * content type, made once (and checked: an API root no HTTP server would send throws here) and shared.
 */
export const baseHeaders = memoize(
  (apiRoot: string, contentType: string): ReadonlyArray<[string, string]> =>
    Object.freeze([
      checkedHeader('Content-Type', `${contentType}; charset=UTF-8`),
      checkedHeader('X-Robots-Tag', 'noindex'),
      checkedHeader('Link', `<${apiRoot}>; rel="https://api.w.org/"`),
      checkedHeader('X-Content-Type-Options', 'nosniff'),
      checkedHeader('Access-Control-Expose-Headers', 'X-WP-Total, X-WP-TotalPages, Link'),
      checkedHeader('Access-Control-Allow-Headers', 'Authorization, X-WP-Nonce, Content-Disposition, Content-MD5, Content-Type'),
    ]),
  (apiRoot, contentType) => `${contentType} ${apiRoot}`,
  64,
);

export const NO_CACHE_HEADERS: ReadonlyArray<[string, string]> = Object.freeze([
  checkedHeader('Expires', 'Wed, 11 Jan 1984 05:00:00 GMT'),
  checkedHeader('Cache-Control', 'no-cache, must-revalidate, max-age=0, no-store, private'),
]);

/** Which origins may read answers cross-site: every one (WordPress's behaviour, the default), a list, or a test. */
export type CorsOrigins = '*' | readonly string[] | ((origin: string) => boolean);

/** `createSite({ cors })`: `false` sends no CORS headers at all; `{ origins }` limits them to those origins. */
export type CorsOption = boolean | { origins?: CorsOrigins };

/** Whether an Origin may read answers, from the site's CORS option. */
export function corsAllows(option: CorsOption | undefined, origin: string): boolean {
  if (option === undefined || option === true) return true;
  if (option === false) return false;
  const origins = option.origins ?? '*';
  if (origins === '*') return true;
  if (typeof origins === 'function') return origins(origin) === true;
  return origins.includes(origin);
}

/**
 * WordPress rest_send_cors_headers: echo an allowed Origin; anonymous GETs without one still vary on it.
 * `credentialed` is false for a cookie session that came without a nonce: its answer is anonymous, and the
 * browser is not told it may read it with credentials.
 */
export function corsHeaders(
  origin: string | undefined,
  rawMethod: string,
  loggedIn: boolean,
  access: { allowed: boolean; credentialed: boolean },
): ReadonlyArray<[string, string]> {
  if (origin) {
    if (!access.allowed) return VARY_ORIGIN;
    const out: Array<[string, string]> = [
      ['Access-Control-Allow-Origin', origin === 'null' ? 'null' : sanitizeOrigin(origin)],
      ['Access-Control-Allow-Methods', 'OPTIONS, GET, POST, PUT, PATCH, DELETE'],
    ];
    if (access.credentialed) out.push(['Access-Control-Allow-Credentials', 'true']);
    out.push(['Vary', 'Origin']);
    return out;
  }
  if (rawMethod === 'GET' && !loggedIn) return VARY_ORIGIN;
  return NO_HEADERS;
}

/** What most answers carry from corsHeaders: made and checked once (see isCheckedHeader), shared. */
const VARY_ORIGIN: ReadonlyArray<[string, string]> = Object.freeze([checkedHeader('Vary', 'Origin')]);
const NO_HEADERS: ReadonlyArray<[string, string]> = Object.freeze([]);

/** Header values must not smuggle line breaks; an origin is a URL without spaces. */
function sanitizeOrigin(origin: string): string {
  return origin.replace(/[\s<>"'`\\]/g, '');
}
