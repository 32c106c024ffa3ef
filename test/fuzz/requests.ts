import fc from 'fast-check';
import { badJson, hostileString, jsonObject, jsonValue, percentEncode, PROTOTYPE_KEYS, queryString, rawEscapes } from '../support/hostile.js';
import type { IndexedRoute } from './site.js';

/** A generated request: what the suite sends and prints when a property fails. */
export interface HostileRequest {
  method: string;
  /** Path and query below the API root, encoded as sent. */
  target: string;
  headers: Record<string, string>;
  body?: string | Buffer;
  /** The route of the index it was made for. */
  route: string;
}

/** Methods no route declares, and the override WordPress honours. */
const ODD_METHODS = ['OPTIONS', 'HEAD', 'PROPFIND', 'TRACE', 'PURGE', 'LINK', 'SEARCH', 'DELETE', 'PUT', 'PATCH', 'POST', 'GET'];

/** Ids that exist in the demo data (small numbers), ids that never do, and ids past every integer type. */
const id = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: 1, max: 80 }).map(String) },
  { weight: 2, arbitrary: fc.constantFrom('0', '00', '007', '2147483648', '9007199254740993', '9223372036854775807', '9223372036854775808', '18446744073709551616', '9'.repeat(400)) },
);

/** WordPress's `(?P<name>pattern)` groups of a route, filled with generated values; the rest kept as written. */
function routePath(pattern: string): fc.Arbitrary<string> {
  const parts: Array<fc.Arbitrary<string>> = [];
  let last = 0;
  for (const match of pattern.matchAll(/\(\?P<(\w+)>((?:[^()]|\([^()]*\))+)\)/g)) {
    parts.push(fc.constant(pattern.slice(last, match.index)));
    parts.push(paramValue(match[2]!));
    last = match.index + match[0].length;
  }
  parts.push(fc.constant(pattern.slice(last)));
  return fc.tuple(...parts).map((pieces) => pieces.join(''));
}

function paramValue(regex: string): fc.Arbitrary<string> {
  if (regex === '\\d+' || regex === '[\\d]+') return id;
  if (/^[\w|-]+$/.test(regex)) return fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...regex.split('|')) }, { weight: 1, arbitrary: hostileSegment });
  return fc.oneof(fc.constantFrom('riverside-jazz-night', 'main-street-hall', 'redirection', 'wordpress-old-slugs'), hostileSegment);
}

/** A path segment: any hostile string percent-encoded, or an escape that does not decode. */
const hostileSegment = fc.oneof({ weight: 4, arbitrary: hostileString.filter((s) => s.length > 0).map((s) => percentEncode(s.slice(0, 3_000))) }, { weight: 1, arbitrary: rawEscapes });

const CONTENT_TYPES = ['application/json', 'application/json; charset=utf-8', 'application/ld+json', 'application/json; charset=utf-16', 'text/plain', 'application/x-www-form-urlencoded', 'application/xml', ''];

/** Bodies: JSON objects (keys repeated, prototype keys, huge and deep values), any JSON, bad JSON, forms, multipart. */
function body(names: readonly string[]): fc.Arbitrary<{ type: string; body: string | Buffer } | null> {
  const value = jsonValue(names);
  const formKey = fc.oneof(fc.constantFrom(...names), fc.constantFrom(...PROTOTYPE_KEYS), fc.constantFrom(...names).map((n) => `${n}[__proto__][x]`), fc.constantFrom(...names).map((n) => `${n}[]`));
  const formPairs = fc.array(fc.tuple(formKey, hostileString), { maxLength: 6 });
  return fc.oneof(
    { weight: 3, arbitrary: fc.constant(null) },
    { weight: 6, arbitrary: fc.tuple(fc.array(fc.tuple(fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...names) }, { weight: 1, arbitrary: fc.constantFrom(...PROTOTYPE_KEYS) }), value), { maxLength: 6 }), fc.constantFrom(...CONTENT_TYPES.slice(0, 4))).map(([pairs, type]) => ({ type, body: jsonObject(pairs) })) },
    { weight: 1, arbitrary: value.map((text) => ({ type: 'application/json', body: text })) },
    { weight: 1, arbitrary: badJson.map((text) => ({ type: 'application/json', body: text })) },
    {
      weight: 2,
      arbitrary: formPairs.map((pairs) => ({ type: 'application/x-www-form-urlencoded', body: pairs.map(([k, v]) => `${percentEncode(k)}=${percentEncode(v)}`).join('&') })),
    },
    { weight: 1, arbitrary: formPairs.map((pairs) => multipart(pairs)) },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...CONTENT_TYPES), hostileString).map(([type, text]) => ({ type, body: text })) },
  );
}

const BOUNDARY = 'siterest-fuzz-boundary';
function multipart(pairs: ReadonlyArray<readonly [string, string]>): { type: string; body: Buffer } {
  const parts = pairs.map(([k, v]) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${k.replace(/["\r\n]/g, '')}"\r\n\r\n${v}\r\n`);
  parts.push(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="x.jpg"\r\nContent-Type: image/jpeg\r\n\r\n\xff\xd8\xff\xe0not a jpeg\r\n`);
  return { type: `multipart/form-data; boundary=${BOUNDARY}`, body: Buffer.from(`${parts.join('')}--${BOUNDARY}--\r\n`, 'utf8') };
}

/** Headers that change how a request is read: method override, nonces, odd accepts. */
const extraHeaders = fc.dictionary(
  fc.constantFrom('X-HTTP-Method-Override', 'X-WP-Nonce', 'Accept', 'Origin', 'X-Forwarded-For'),
  fc.oneof(fc.constantFrom('DELETE', 'PUT', 'GET', 'PROPFIND', '*/*', 'text/html', 'null', '::1', '999.1.1.1'), fc.string({ maxLength: 40 }).map((s) => s.replace(/[^\x20-\x7e]/g, ''))),
  { maxKeys: 2 },
);

/** Any request to one of the routes: a method (mostly the route's own), its path filled, a query and a body. */
export function hostileRequest(routes: readonly IndexedRoute[], names: readonly string[]): fc.Arbitrary<HostileRequest> {
  return fc.constantFrom(...routes).chain((route) => {
    const argNames = route.args.length ? [...route.args, '_fields', '_embed', '_method', '_envelope', '_jsonp', 'context', 'page', 'per_page', 'search'] : names;
    return fc
      .record({
        method: fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...route.methods) }, { weight: 1, arbitrary: fc.constantFrom(...ODD_METHODS) }),
        path: routePath(route.pattern),
        viaRestRoute: fc.integer({ min: 0, max: 5 }).map((n) => n === 0),
        query: queryString(argNames),
        body: body(argNames),
        headers: extraHeaders,
      })
      .map(({ method, path, viaRestRoute, query, body: payload, headers }): HostileRequest => {
        const target = viaRestRoute ? `/?rest_route=${path}${query ? `&${query}` : ''}` : `${path}${query ? `?${query}` : ''}`;
        const all: Record<string, string> = { ...headers };
        if (payload?.type) all['Content-Type'] = payload.type;
        return withShortPrint({ method, target, headers: all, body: payload?.body, route: route.pattern });
      });
  });
}

/** How fast-check prints a request in a failure: long targets and bodies cut, so the report stays readable. */
function withShortPrint(request: HostileRequest): HostileRequest {
  const cut = (text: string) => (text.length > 300 ? `${text.slice(0, 300)}…(${text.length} chars)` : text);
  return Object.assign(request, {
    [fc.toStringMethod]: () =>
      `${request.method} ${cut(request.target)} ${JSON.stringify(request.headers)}${request.body === undefined ? '' : ` body ${cut(String(request.body))}`}`,
  });
}
