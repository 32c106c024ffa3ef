import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { ApiError } from './api-error.js';
import { FORM_TYPE, hasBody, JSON_TYPE, readBody } from './body.js';
import type { Maybe } from '../util/maybe.js';
import type { RequestBody, SiteRequest, SiteResponse } from './request.js';

/**
 * What both framework adapters share, so each of them only translates: read the body of a Node request
 * (or take one the host app already parsed), build the neutral request, and group response headers.
 */
export interface NodeRequestParts {
  raw: IncomingMessage;
  method: string;
  /** Path below the mount point, with the query string. */
  url: string;
  basePath: string;
  /**
   * Whether the host app already read the body (a body parser ran before siterest); `parsedBody` is then what it
   * made of it: an object (`express.json()`, `express.urlencoded()`), a string (`text()`) or bytes (`raw()`).
   */
  bodyRead?: boolean;
  parsedBody?: unknown;
  /** The framework's own request, for the site's authenticate hook. */
  frameworkRequest?: unknown;
}

/** What the kit needs of a site: its body limit, and which requests' bodies a route reads itself. */
interface BodyPolicy {
  readonly bodyLimit: number;
  /** Whether the route of this request streams its body (path below the mount point, with the query). */
  streamsBody?(method: string, url: string, contentType: string): boolean;
}

const FORM_OR_JSON = /^(application\/([\w.+-]*\+)?json|application\/x-www-form-urlencoded|multipart\/form-data)\b/i;

/**
 * The neutral request of a Node request, its body read (see NodeRequestParts); `bodyError` when the body could not
 * be read (413, 400). At once when there is no body to wait for (most GET requests): await it.
 */
export function toSiteRequest(parts: NodeRequestParts, policy: number | BodyPolicy): Maybe<{ request: SiteRequest; bodyError?: ApiError }> {
  const bodyLimit = typeof policy === 'number' ? policy : policy.bodyLimit;
  const headers = parts.raw.headers as IncomingHttpHeaders & Record<string, string | string[] | undefined>;
  const q = parts.url.indexOf('?');
  const request: SiteRequest = {
    method: parts.method,
    path: q === -1 ? parts.url : parts.url.slice(0, q),
    query: q === -1 ? '' : parts.url.slice(q + 1),
    headers,
    basePath: parts.basePath,
    remoteAddress: parts.raw.socket?.remoteAddress,
    frameworkRequest: parts.frameworkRequest,
  };
  if (parts.bodyRead) {
    request.body = bodyFromApp(parts.parsedBody, String(headers['content-type'] ?? ''));
    return { request };
  }
  const contentType = String(headers['content-type'] ?? '');
  if (typeof policy === 'object' && !FORM_OR_JSON.test(contentType) && policy.streamsBody?.(parts.method, parts.url, contentType)) {
    const declared = Number(headers['content-length']);
    if (hasBody(headers)) request.body = { kind: 'stream', contentType, stream: parts.raw, length: Number.isFinite(declared) ? declared : undefined };
    else parts.raw.resume();
    return { request };
  }
  if (!hasBody(headers)) {
    parts.raw.resume();
    return { request };
  }
  return readBody(parts.raw, headers, { limit: bodyLimit }).then(
    (body) => {
      request.body = body;
      return { request };
    },
    (error: unknown) => {
      if (error instanceof ApiError) return { request, bodyError: error };
      throw error;
    },
  );
}

/**
 * A body the host app's parser already read, turned back into the bytes core parses itself, so it goes through
 * the same path (and the same limits and WordPress rules: PHP's bracket names, JSON lists) as a body siterest read.
 */
function bodyFromApp(value: unknown, contentType: string): RequestBody | undefined {
  if (Buffer.isBuffer(value)) return value.length ? { kind: 'raw', contentType, bytes: value } : undefined;
  if (typeof value === 'string') return value ? { kind: 'raw', contentType, bytes: Buffer.from(value) } : undefined;
  if (value === null || typeof value !== 'object') return undefined;
  if (JSON_TYPE.test(contentType)) {
    try {
      return { kind: 'raw', contentType, bytes: Buffer.from(JSON.stringify(value)) };
    } catch {
      // Nested too deeply to write again (a call-stack overflow): core checks the value as parsed and refuses it.
      return { kind: 'parsed', contentType, value };
    }
  }
  if (FORM_TYPE.test(contentType)) return { kind: 'raw', contentType, bytes: Buffer.from(formString(value)) };
  return { kind: 'parsed', contentType, value };
}

/**
 * An urlencoded body as PHP names its fields: nested objects as `a[b]=…`, lists as `a[]=…`; a key a flat parser
 * left with its brackets (`tags[]`) keeps them, so `tags[]=a&tags[]=b` reads back as it was sent.
 */
function formString(value: object): string {
  const pairs: string[] = [];
  const add = (key: string, item: unknown): void => {
    if (item === null || item === undefined) return;
    if (Array.isArray(item)) {
      const name = key.endsWith('[]') ? key : `${key}[]`;
      for (const element of item) add(name, element);
    } else if (typeof item === 'object') {
      for (const [sub, subItem] of Object.entries(item)) add(`${key}[${sub}]`, subItem);
    } else {
      pairs.push(`${encodeURIComponent(key)}=${encodeURIComponent(String(item))}`);
    }
  };
  for (const [key, item] of Object.entries(value)) add(key, item);
  return pairs.join('&');
}

/** Response headers grouped by name (repeated names become lists), in first-seen order. */
export function groupHeaders(response: SiteResponse): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  forEachHeader(response, (name, value) => {
    out[name] = value;
  });
  return out;
}

/**
 * Gives each header name of an answer once, in first-seen order, with its value, or its values when the name is
 * repeated: what groupHeaders holds, for an adapter that sets each on the framework's response (no object of
 * them is made per request).
 */
export function forEachHeader(response: SiteResponse, set: (name: string, value: string | string[]) => void): void {
  const headers = response.headers;
  for (let i = 0; i < headers.length; i++) {
    // The pair read by index: destructuring it makes an iterator per header.
    const pair = headers[i]!;
    const name = pair[0];
    const value = pair[1];
    let seen = false;
    for (let j = 0; j < i && !seen; j++) seen = headers[j]![0] === name;
    if (seen) continue;
    let values: string[] | null = null;
    for (let j = i + 1; j < headers.length; j++) if (headers[j]![0] === name) (values ??= [value]).push(headers[j]![1]);
    set(name, values ?? value);
  }
}
