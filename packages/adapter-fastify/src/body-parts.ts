import { ServerResponse, type OutgoingHttpHeader } from 'node:http';
import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { bodyLength, forEachHeader, type BodyPart, type SiteResponse } from '@siterest/core';

/**
 * An answer's body in pieces (`SiteResponse.bodyParts`) as a Fastify payload. Fastify takes one buffer, a string
 * or a stream; joining the pieces would copy tens of kilobytes into a fresh buffer per request, so they go out
 * as a stream instead. Piped into the Node response (Fastify's own sending), they are written corked, after
 * the stream has ended, so they leave in one system call rather than one per piece; anything else the app puts
 * in between (an onSend hook's compression) reads it as an ordinary stream. When they reach the plugin's own last
 * onSend hook untouched, they skip Fastify's stream sending altogether (see {@link writePiecesDirectly}).
 */
export class BodyParts extends Readable {
  private next = 0;

  constructor(private readonly parts: readonly BodyPart[]) {
    super();
  }

  override _read(): void {
    while (this.next < this.parts.length) if (!this.push(this.parts[this.next++])) return;
    this.push(null);
  }

  /** Whether nothing has read the pieces yet (no hook of the app took them as a stream). */
  get untouched(): boolean {
    return this.next === 0 && this.readableFlowing === null;
  }

  override pipe<T extends NodeJS.WritableStream>(destination: T, options?: { end?: boolean }): T {
    // Only untouched and into a whole response; with trailers (`end: false`) Fastify ends the response itself.
    if (!this.untouched || !(destination instanceof ServerResponse) || options?.end === false) {
      return super.pipe(destination, options);
    }
    this.next = this.parts.length;
    // Written once the stream has ended, so that Fastify, which watches both, sees the source done first.
    this.once('end', () => writeParts(destination, this.parts));
    this.push(null);
    this.resume();
    return destination;
  }

  /** Writes the pieces into a whole response and ends it; nothing may read the stream then (nothing watches it). */
  writeInto(destination: ServerResponse): void {
    this.next = this.parts.length;
    writeParts(destination, this.parts);
  }
}

/** The pieces written corked, so they leave in one system call, with their length unless one is set already. */
function writeParts(destination: ServerResponse, parts: readonly BodyPart[]): void {
  // The length, as Fastify gives a buffer's; set here, not on the reply, because an onSend hook may still replace
  // the payload or add trailers (a chunked answer must not carry a Content-Length).
  if (!destination.headersSent && !destination.hasHeader('content-length') && !destination.hasHeader('transfer-encoding')) {
    destination.setHeader('content-length', bodyLength(parts));
  }
  writeCorked(destination, parts);
}

/** The pieces written and the response ended, corked: they leave in one system call. */
function writeCorked(destination: ServerResponse, parts: readonly BodyPart[]): void {
  destination.cork();
  for (let i = 0; i < parts.length; i++) destination.write(parts[i]!);
  destination.end();
}

/**
 * The symbol Fastify keeps a reply's route context under (its hooks), read through a getter of the reply's
 * prototype; found once by its description, null where a Fastify version keeps it otherwise.
 */
let contextKey: symbol | null | undefined;

/** The onSend hooks Fastify will run for a reply: null for none, undefined where they cannot be read. */
function onSendHooks(reply: FastifyReply): readonly unknown[] | null | undefined {
  if (contextKey === undefined) {
    contextKey = null;
    for (let at: object | null = reply; at !== null && contextKey === null; at = Object.getPrototypeOf(at) as object | null) {
      contextKey = Object.getOwnPropertySymbols(at).find((key) => key.description === 'fastify.context') ?? null;
    }
  }
  if (contextKey === null) return undefined;
  const context = (reply as unknown as Record<symbol, { onSend?: unknown } | undefined>)[contextKey];
  const hooks = context?.onSend;
  return hooks === null ? null : Array.isArray(hooks) ? hooks : undefined;
}

/** Whether a hook Fastify holds is the plugin's own: Fastify keeps the route's hooks bound to its instance. */
function isWritePiecesDirectly(hook: unknown): boolean {
  return hook === writePiecesDirectly || (typeof hook === 'function' && hook.name === `bound ${writePiecesDirectly.name}`);
}

/**
 * Writes an answer in pieces (or kept bytes, as one piece) into the response at once when no hook of the app would see it (the route's only onSend
 * hook is the plugin's own, {@link writePiecesDirectly}) and the plugin may write the response itself
 * ({@link heldHeaders}); false, having done nothing, otherwise. Fastify's sending of a stream parses the Content-Type,
 * makes a stream object and runs the hook, and the headers were set one by one on the response beforehand, which
 * keeps a second map of them: together about 3 µs of server CPU per list under load (2–5 in turns with the previous
 * adapter). Here the head is written in one call, the headers as a flat list, the app's reply headers winning over
 * siterest's of the same name as when Fastify sends them; then the pieces, corked, the reply hijacked. onResponse
 * hooks still run when the response finishes.
 */
export function writeAtOnce(reply: FastifyReply, response: SiteResponse, parts: readonly BodyPart[]): boolean {
  const hooks = onSendHooks(reply);
  if (!hooks || hooks.length !== 1 || !isWritePiecesDirectly(hooks[0])) return false;
  const held = heldHeaders(reply);
  if (!held) return false;
  const raw = reply.raw;
  const head: Array<string | number | readonly string[]> = [];
  let sized = Object.hasOwn(held, 'content-length') || Object.hasOwn(held, 'transfer-encoding') || raw.hasHeader('content-length') || raw.hasHeader('transfer-encoding');
  forEachHeader(response, (name, value) => {
    const lower = name.toLowerCase();
    if (Object.hasOwn(held, lower)) return;
    if (lower === 'content-length') sized = true;
    head.push(name, value);
  });
  for (const name in held) head.push(name, held[name]!);
  if (!sized) head.push('Content-Length', bodyLength(parts));
  // The head first: a header Node refuses (one the app set) fails here, before the reply is taken from Fastify,
  // whose error handling then answers.
  raw.writeHead(response.status, head as unknown as OutgoingHttpHeader[]);
  reply.hijack();
  writeCorked(raw, parts);
  return true;
}

type HeldHeaders = Record<string, string | number | readonly string[]>;

/**
 * The headers the app set with `reply.header`, when the plugin may write the reply's response itself: a whole
 * HTTP/1 response whose head is not written yet, with no trailer to follow; else null.
 */
function heldHeaders(reply: FastifyReply): HeldHeaders | null {
  const raw = reply.raw;
  if (!(raw instanceof ServerResponse) || raw.headersSent) return null;
  const held = pending(reply);
  if (held === null || held.trailers !== null || typeof held.headers !== 'object' || held.headers === null) return null;
  return held.headers as HeldHeaders;
}

/**
 * What a reply holds that Fastify writes only when it sends: its trailers and the headers set with `reply.header`.
 * Fastify offers no way to list its trailers, and `reply.getHeaders()` copies every header of the response into a
 * fresh object (a tenth of a list's sending), so both are read under the symbols Fastify keeps them by, looked up
 * once by their descriptions. Where a Fastify version keeps them otherwise, a reply counts as one that may have
 * trailers, and its pieces go Fastify's own way.
 */
let replyKeys: { trailers: symbol; headers: symbol } | null | undefined;

function pending(reply: FastifyReply): { trailers: unknown; headers: unknown } | null {
  if (replyKeys === undefined) {
    const keys = Object.getOwnPropertySymbols(reply);
    const trailers = keys.find((key) => key.description === 'fastify.reply.trailers');
    const headers = keys.find((key) => key.description === 'fastify.reply.headers');
    replyKeys = trailers && headers ? { trailers, headers } : null;
  }
  if (replyKeys === null) return null;
  const fields = reply as unknown as Record<symbol, unknown>;
  return { trailers: fields[replyKeys.trailers], headers: fields[replyKeys.headers] };
}

/**
 * The plugin's routes' last onSend hook. Fastify sends a stream with end-of-stream watchers on both the stream and
 * the response and the stream's own turns, which cost an uncached list more than the rest of its sending (about
 * 25 µs of server CPU per request under load, against writing the same pieces straight into the response). When
 * the pieces reach this hook as the handler gave them — no hook of the app replaced or read them (compression), no
 * trailer is to follow them, an HTTP/1 response — they are written into the response here, the reply is hijacked,
 * and Fastify's sending is skipped; its onResponse hooks still run when the response finishes. Headers the app's
 * hooks set with `reply.header` are written onto the response first, as Fastify writes them. Anything else goes on
 * to Fastify unchanged.
 */
export function writePiecesDirectly(_request: unknown, reply: FastifyReply, payload: unknown, done: (error: null, payload: unknown) => void): void {
  const held = payload instanceof BodyParts && payload.untouched ? heldHeaders(reply) : null;
  if (!held) {
    done(null, payload);
    return;
  }
  const raw = reply.raw;
  for (const name in held) raw.setHeader(name, held[name]!);
  reply.hijack();
  (payload as BodyParts).writeInto(raw);
}
