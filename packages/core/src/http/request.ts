/**
 * The neutral request and response every adapter translates to and from. Core never sees a framework object.
 */
export interface UploadedFile {
  field: string;
  filename: string;
  mimeType: string;
  data: Buffer;
}

export type RequestBody =
  /** The raw bytes of a JSON, urlencoded or other body; core parses it (so JSON errors surface in order). */
  | { kind: 'raw'; contentType: string; bytes: Buffer }
  /** A multipart form, read by the adapter with {@link readBody}. */
  | { kind: 'multipart'; contentType: string; fields: Record<string, unknown>; files: UploadedFile[] }
  /** A body the host app had already parsed before siterest saw the request. */
  | { kind: 'parsed'; contentType: string; value: unknown }
  /**
   * A body left unread for a route that reads it itself (uploads stream to the file storage). Whoever does
   * not read it lets the server discard it.
   */
  | { kind: 'stream'; contentType: string; stream: AsyncIterable<Uint8Array>; length?: number };

export interface SiteRequest {
  method: string;
  /** Path below the API root, e.g. `/cal/events/v1/events` (`/` or `` for the root), not yet decoded. */
  path: string;
  /** Raw query string without the leading `?`. */
  query?: string;
  /** Header names in lower case. */
  headers: Record<string, string | string[] | undefined>;
  body?: RequestBody;
  /** Where the API is mounted, e.g. `/api`; defaults to the site's `basePath`. */
  basePath?: string;
  remoteAddress?: string;
  /**
   * For in-process calls only (seeding, server-side jobs): act as this principal without credentials.
   * Adapters never set it, so it cannot come from the network.
   */
  principal?: import('../auth/principal.js').Principal;
  /**
   * The host framework's own request (Express `req`, Fastify `request`), set by the adapters and handed to the
   * site's `authenticate` hook untouched. Core never reads it.
   */
  frameworkRequest?: unknown;
}

export interface SiteResponse {
  status: number;
  /**
   * In sending order; a name may repeat (several `Link` headers). The standard pairs are shared by every answer
   * and frozen: replace a pair in the list rather than change it.
   */
  headers: Array<[string, string]>;
  /** Empty for HEAD, 204 and null results. */
  body: string;
  /**
   * The body's UTF-8 bytes, when siterest keeps them (answers from its answer cache): the adapters send these,
   * which spares encoding the text again. Never to be changed: they are shared between requests.
   */
  bodyBytes?: Uint8Array;
  /**
   * The body in pieces, to be written in this order, when siterest put the answer together from kept fragments
   * (an event, venue or organizer list not answered from a cache). Adapters write them one after another
   * (corked: one system call), which spares copying tens of kilobytes into a fresh buffer per request;
   * `bodyBytes` and `body` join them when read. Never to be changed: they are shared between requests.
   */
  bodyParts?: readonly BodyPart[];
}

/**
 * A piece of a body: UTF-8 bytes, or text to be written as UTF-8 (the few hundred characters made for one
 * request, such as a list's paging links: Node copies a string into the write itself, where making bytes of it
 * first would take memory from a pool that only garbage collection frees).
 */
export type BodyPart = Uint8Array | string;

/** The number of bytes of a body sent in pieces (`SiteResponse.bodyParts`). */
export function bodyLength(parts: readonly BodyPart[]): number {
  let length = 0;
  for (const part of parts) length += typeof part === 'string' ? Buffer.byteLength(part) : part.byteLength;
  return length;
}

export function headerValue(headers: SiteRequest['headers'], name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}
