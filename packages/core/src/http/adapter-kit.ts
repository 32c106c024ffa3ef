import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { ApiError } from './api-error.js';
import { readBody } from './body.js';
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
  /** A body the host framework already parsed, if any. */
  parsedBody?: unknown;
}

/** What the kit needs of a site: its body limit, and which requests' bodies a route reads itself. */
export interface BodyPolicy {
  readonly bodyLimit: number;
  /** Whether the route of this request streams its body (path below the mount point, with the query). */
  streamsBody?(method: string, url: string, contentType: string): boolean;
}

const FORM_OR_JSON = /^(application\/([\w.+-]*\+)?json|application\/x-www-form-urlencoded|multipart\/form-data)\b/i;

export async function toSiteRequest(
  parts: NodeRequestParts,
  policy: number | BodyPolicy,
): Promise<{ request: SiteRequest; bodyError?: ApiError }> {
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
  };
  if (parts.parsedBody !== undefined) {
    request.body = { kind: 'parsed', contentType: String(headers['content-type'] ?? ''), value: parts.parsedBody } satisfies RequestBody;
    return { request };
  }
  const contentType = String(headers['content-type'] ?? '');
  if (typeof policy === 'object' && !FORM_OR_JSON.test(contentType) && policy.streamsBody?.(parts.method, parts.url, contentType)) {
    const declared = Number(headers['content-length']);
    const hasBody = headers['transfer-encoding'] !== undefined || (Number.isFinite(declared) && declared > 0);
    if (hasBody) request.body = { kind: 'stream', contentType, stream: parts.raw, length: Number.isFinite(declared) ? declared : undefined };
    else parts.raw.resume();
    return { request };
  }
  try {
    request.body = await readBody(parts.raw, headers, { limit: bodyLimit });
    return { request };
  } catch (error) {
    if (error instanceof ApiError) return { request, bodyError: error };
    throw error;
  }
}

/** Response headers grouped by name (repeated names become lists), in first-seen order. */
export function groupHeaders(response: SiteResponse): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of response.headers) {
    const existing = out[name];
    if (existing === undefined) out[name] = value;
    else out[name] = Array.isArray(existing) ? [...existing, value] : [existing, value];
  }
  return out;
}
