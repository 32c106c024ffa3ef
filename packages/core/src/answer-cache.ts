import { capOverride, type Principal } from './auth/principal.js';
import { ApiResponse } from './http/api-response.js';
import { encodeJson } from './http/json.js';
import type { ChangeScope } from './store/change-scopes.js';
import type { SiteStore } from './store/repositories.js';
import { bodyLength, type BodyPart, type SiteRequest } from './http/request.js';
import { VersionedLru } from './util/versioned-lru.js';

/**
 * Data of cached answers: shared between requests and never changed, so their JSON is worked out once, and its
 * UTF-8 bytes too, the first time they are sent (a cached answer is then written as it is, without measuring and
 * encoding tens of kilobytes of text again for every request).
 */
const encodings = new WeakMap<object, Encoding>();

/**
 * An answer's JSON as text, as UTF-8 bytes, or as the UTF-8 bytes of its pieces in order (a list put together
 * from kept fragments, see fragment-cache.ts): each form made from another when first asked for.
 */
interface Encoding {
  text: string | null;
  bytes: Buffer | null;
  parts: readonly BodyPart[] | null;
  /**
   * No later than when the oldest of the data was read: the oldest piece's time (see Fragment.builtAt), or when
   * an answer cache that kept it read its version; null when all of it was read now.
   */
  builtAt: number | null;
}

/**
 * Records the JSON of `data` (a list put together from JSON fragments, see fragment-cache.ts) as the UTF-8 bytes
 * of its pieces, so they are written as they are, one after another; the whole is joined only when an answer
 * cache keeps it or something asks for it (`SiteResponse.bodyBytes`), and decoded only when asked for (`_jsonp`,
 * `SiteResponse.body`). Neither `data` nor the pieces may be changed afterwards. `builtAt`: when the oldest data
 * among the pieces was read, where the pieces were kept (the age an answer cache keeps it with).
 */
export function shareParts(data: object, parts: readonly BodyPart[], builtAt: number | null): void {
  encodings.set(data, { text: null, bytes: null, parts, builtAt });
}

/** The UTF-8 bytes of pieces written one after another, copied into one buffer. */
export function joinParts(parts: readonly BodyPart[]): Buffer {
  const joined = Buffer.allocUnsafe(bodyLength(parts));
  let offset = 0;
  for (const part of parts) {
    if (typeof part === 'string') offset += joined.write(part, offset);
    else {
      joined.set(part, offset);
      offset += part.byteLength;
    }
  }
  return joined;
}

function bytesOf(known: Encoding): Buffer {
  return (known.bytes ??= known.parts ? joinParts(known.parts) : Buffer.from(known.text!));
}

/**
 * No later than when the oldest of an answer's data was read, for data an answer cache kept or a list put together
 * from kept fragments; null for data read now. What keeps the answer again (as sent) ages it from then.
 */
export function dataReadAt(data: unknown): number | null {
  if (data === null || typeof data !== 'object') return null;
  return encodings.get(data)?.builtAt ?? null;
}

/** The JSON of an answer's data; for data an answer cache holds, encoded once and reused. */
export function encodeShared(data: unknown): string {
  if (data === null || typeof data !== 'object') return encodeJson(data);
  const known = encodings.get(data);
  if (!known) return encodeJson(data);
  return (known.text ??= bytesOf(known).toString('utf8'));
}

/**
 * The UTF-8 bytes of `encodeShared(data)` when that JSON is shared: one buffer (made once, for data an answer
 * cache keeps), else the pieces it was put together from; null when it is not shared.
 */
export function sharedBytes(data: unknown): Buffer | readonly BodyPart[] | null {
  if (data === null || typeof data !== 'object') return null;
  const known = encodings.get(data);
  if (!known) return null;
  // Pieces are written as they are: joining them would copy tens of kilobytes into fresh memory per request.
  if (!known.bytes && known.parts) return known.parts;
  return bytesOf(known);
}

export interface AnswerCacheOptions {
  /** Most answers kept (256). */
  maxEntries?: number;
  /**
   * For a site with an `authenticate` hook: whether a request's headers alone show that the hook will find no
   * caller (say, no session cookie: `(headers) => headers.cookie === undefined`). Such anonymous requests then
   * get answers kept as sent (see sent-answers.ts), as on a site without a hook; without it, a site with a hook
   * keeps none. A request it wrongly calls anonymous can only be given the answer an anonymous caller got.
   */
  anonymous?: (headers: SiteRequest['headers']) => boolean;
  /** Most memory the kept answers may take, estimated from their JSON (32 MiB). */
  maxBytes?: number;
  /**
   * Longest time an answer is reused, in milliseconds (30 s): the bound on how stale an answer can be after a
   * write the store's change version does not see (SQL run outside siterest, see docs/architecture.md).
   */
  maxAgeMs?: number;
}

/** The bounds `options` give, with their defaults: 256 answers, 32 MiB, 30 s (answers as sent share them). */
export function answerCacheBounds(options: AnswerCacheOptions): { maxEntries: number; maxBytes: number; maxAgeMs: number } {
  return { maxEntries: options.maxEntries ?? 256, maxBytes: options.maxBytes ?? 32 * 1024 * 1024, maxAgeMs: options.maxAgeMs ?? 30_000 };
}

/**
 * Longest key material kept: a request naming more (a huge search, long id lists) is answered without the
 * cache, so nobody can fill memory with keys. Real requests stay far below it.
 */
const MAX_KEY_CHARS = 4096;

/**
 * What an answer costs in memory per character of its JSON: the text, its UTF-8 bytes once sent, and the objects
 * it was encoded from (kept for `_fields` and `_embed`), measured at about twice the text on event lists.
 */
const BYTES_PER_JSON_CHAR = 4;

/**
 * Recent answers, each kept with the change version of the data it depends on (store.changeVersion of its
 * scopes) and the settings it was computed with, and reused only while both are current and the answer is younger
 * than `maxAgeMs` — so an answer is never staler than the last committed write of any instance through siterest.
 * The Events Calendar caches its archive answers per user the same way, cleared on every save.
 *
 * Keys are the JSON of everything an answer depends on besides the data, the caller's rights included (see
 * `callerKey`). Concurrent misses of one key at one version compute the answer once. Memory is bounded in entries
 * and in bytes; one answer larger than an eighth of the bytes is not kept.
 */
export class AnswerCache {
  private readonly kept: VersionedLru;
  private readonly pending = new Map<string, { version: number; settings: unknown; answer: Promise<unknown> }>();

  constructor(
    private readonly store: SiteStore,
    private readonly now: () => number,
    options: AnswerCacheOptions = {},
  ) {
    this.kept = new VersionedLru(now, { ...answerCacheBounds(options), largestShare: 8 });
  }

  /** The number of answers kept and the memory they are estimated to take. */
  get size(): { entries: number; bytes: number } {
    return this.kept.size;
  }

  /**
   * The answer for `keyParts` at the store's current version of `scopes`, computed by `compute` on a miss. `settings`
   * is the site's settings object as the request starts: an answer is reused only with the very same object. A
   * settings change writes its options (which advances the version) before the site has read them back, so a
   * request in between computes with the old settings at the new version; kept under that version alone, it would
   * be served until the next write or `maxAgeMs`.
   */
  async remember<T>(
    keyParts: readonly unknown[],
    scopes: readonly ChangeScope[],
    compute: (version?: number) => Promise<T>,
    onVersion?: (version: number) => void,
    settings?: unknown,
  ): Promise<T> {
    if (!this.store.changeVersion) return compute();
    const key = keyText(scopes, keyParts);
    if (key === null) return compute();
    let version: number;
    try {
      version = await this.store.changeVersion(scopes);
    } catch {
      // The store cannot vouch for its version (a write's advance is owed): nothing cached may be trusted.
      this.clear();
      return compute();
    }
    onVersion?.(version);
    const hit = this.kept.get(key, version, settings);
    if (hit !== undefined) return hit as T;
    const running = this.pending.get(key);
    if (running && running.version === version && running.settings === settings) return running.answer as Promise<T>;
    // Computed after reading the version: a write meanwhile makes this entry stale at once. Its age counts from
    // before the computation reads its data, however long that takes.
    const readAt = this.now();
    const answer = compute(version);
    this.pending.set(key, { version, settings, answer });
    try {
      const value = await answer;
      this.keep(key, version, value, settings, readAt);
      return value;
    } finally {
      if (this.pending.get(key)?.answer === answer) this.pending.delete(key);
    }
  }

  clear(): void {
    this.kept.clear();
  }

  private keep(key: string, version: number, value: unknown, settings: unknown, readAt: number): void {
    let bytes = 0;
    let storedAt = readAt;
    if (value instanceof ApiResponse && value.data !== null && typeof value.data === 'object') {
      // The same data may be kept under two keys (see RequestAnswer in http/pipeline.ts): encoded once.
      let known = encodings.get(value.data);
      if (known === undefined) encodings.set(value.data, (known = { text: encodeJson(value.data), bytes: null, parts: null, builtAt: null }));
      // A kept answer is sent again and again: as one buffer, joined once here rather than written piece by piece.
      if (known.parts) {
        bytesOf(known);
        known.parts = null;
      }
      // UTF-8 bytes are at least as many as characters: counting them errs on the safe side.
      bytes = (known.bytes ? known.bytes.length : known.text!.length) * BYTES_PER_JSON_CHAR;
      // As old as its oldest data, so an outside write is seen within maxAgeMs: put together from kept fragments,
      // or kept before under another key (a route's answer kept again under its request's, see RequestAnswer in
      // http/pipeline.ts), and so is what keeps it next.
      if (known.builtAt !== null && known.builtAt < storedAt) storedAt = known.builtAt;
      known.builtAt = storedAt;
    }
    this.kept.set(key, version, value, bytes, settings, storedAt);
  }
}

/**
 * The key for the key material: its JSON text, or null when it is too long to be worth caching. At most 4 KB, so
 * it is kept as it is (a map key costs its length, which the bytes bound counts): hashing it cost more per request
 * than the rest of a cached answer's lookup.
 */
function keyText(scopes: readonly ChangeScope[], parts: readonly unknown[]): string | null {
  const text = JSON.stringify([scopes, parts]);
  return text.length > MAX_KEY_CHARS ? null : text;
}

/**
 * What an answer depends on about its caller: the user, and the rights the answer was computed with (roles and
 * capability overrides, which an authenticate hook may give the same user differently from one request to the
 * next).
 */
export function callerKey(principal: Principal | null): unknown {
  if (!principal) return 0;
  // The overrides as capOverride reads them: every own name (enumerable or not), booleans only.
  const overrides: Array<[string, boolean]> = [];
  const caps = principal.caps;
  if (caps !== null && typeof caps === 'object') {
    for (const name of Object.getOwnPropertyNames(caps).sort()) {
      const override = capOverride(principal, name);
      if (override !== undefined) overrides.push([name, override]);
    }
  }
  return [principal.id, [...principal.roles].sort(), overrides];
}
