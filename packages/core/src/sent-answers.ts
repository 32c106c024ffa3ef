import type { ChangeScope } from './store/change-scopes.js';
import type { SiteStore } from './store/repositories.js';
import type { SiteRequest, SiteResponse } from './http/request.js';
import { VersionedLru } from './util/versioned-lru.js';

/** Longest URL whose answer is kept as sent (a longer one is answered by the whole pipeline every time). */
const MAX_URL_CHARS = 2048;

interface SentAnswer {
  readonly scopes: readonly ChangeScope[];
  readonly response: SiteResponse;
}

/** What a store must offer for answers to be kept as sent: its change version. */
type KnowsVersions = Pick<SiteStore, 'knownChangeVersion'> & { changeVersion: NonNullable<SiteStore['changeVersion']> };

/**
 * Whole answers as they were sent — status, headers and bytes — kept under the URL an anonymous client asked, so
 * that the same request within the same second is answered before the pipeline starts: no query parsing, no
 * route match, no caller identification. It holds only answers the pipeline itself took from its
 * request-level answer cache (endpoints with `answerScopes`), for requests whose answer nothing but the URL, the
 * clock's second and the data decides:
 *
 * - GET without a body, and no `Authorization`, `X-WP-Nonce` or `Origin` header (the answer would depend on the
 *   caller, or carry CORS headers for that origin);
 * - a site without an `authenticate` hook (only the hook can tell who a request's cookies or session belong to),
 *   or one whose app says which headers the hook finds no caller in (`cache.anonymous`);
 * An answer is reused only while the change version of its scopes is the one it was computed at, within the second
 * its key names, and with the same settings object (the API root in its links). A store that knows its version
 * without asking (the memory store, `knownChangeVersion`) is answered synchronously, without a single promise; the
 * PostgreSQL store is asked for it as the pipeline would (one shared read, see its changeVersion).
 */
export class SentAnswers {
  private readonly kept: VersionedLru;

  constructor(
    private readonly store: KnowsVersions,
    private readonly now: () => number,
    bounds: { maxEntries: number; maxBytes: number; maxAgeMs: number },
    /** For a site with an authenticate hook: the app's word that a request's headers name no caller. */
    private readonly anonymous: ((headers: SiteRequest['headers']) => boolean) | null = null,
  ) {
    this.kept = new VersionedLru(now, { ...bounds, largestShare: 8 });
  }

  /** A store that can keep answers as sent, or null. */
  static storeOf(store: SiteStore): KnowsVersions | null {
    return typeof store.changeVersion === 'function' ? (store as KnowsVersions) : null;
  }

  /**
   * The kept answer for this request, or null when it must go through the pipeline; a promise of either when the
   * store must be asked for its version. `url`: path below the mount point, with the query.
   */
  find(method: string, url: string, headers: SiteRequest['headers'], basePath: string, settings: object): SiteResponse | null | Promise<SiteResponse | null> {
    if (method !== 'GET' || url.length > MAX_URL_CHARS || !this.answersByUrl(headers)) return null;
    const key = `${Math.floor(this.now() / 1000)} ${basePath} ${url}`;
    const candidate = this.kept.peek(key) as SentAnswer | undefined;
    if (!candidate) return null;
    const store = this.store;
    if (store.knownChangeVersion) return responseOf(this.kept.get(key, store.knownChangeVersion(candidate.scopes), settings));
    // Asked now, after the request came: a write finished before it is seen. A store that cannot vouch for its
    // version (a write's advance is owed) sends the request through the pipeline, which then trusts no cache.
    return store.changeVersion(candidate.scopes).then(
      (version) => responseOf(this.kept.get(key, version, settings)),
      () => null,
    );
  }

  private answersByUrl(headers: SiteRequest['headers']): boolean {
    if (!answersByUrl(headers)) return false;
    if (this.anonymous === null) return true;
    try {
      return this.anonymous(headers) === true;
    } catch {
      // The app's test failed: the request goes through the pipeline, whose hook decides.
      return false;
    }
  }

  /**
   * Keeps `response`, the answer to `request` at `version` (read before it was looked up or computed) in the
   * clock's `second`, as old as `readAt` (when its oldest data was read; now when null). The caller has checked
   * that no caller decided it (see the class comment).
   */
  keep(
    request: SiteRequest,
    basePath: string,
    settings: object,
    second: number,
    scopes: readonly ChangeScope[],
    version: number,
    response: SiteResponse,
    readAt: number | null,
  ): void {
    if (!response.bodyBytes || request.method !== 'GET' || !this.answersByUrl(request.headers)) return;
    const url = request.query ? `${request.path}?${request.query}` : request.path;
    if (url.length > MAX_URL_CHARS) return;
    const size = response.bodyBytes.byteLength + 64 * response.headers.length;
    this.kept.set(`${second} ${basePath} ${url}`, version, { scopes, response } satisfies SentAnswer, size, settings, readAt ?? undefined);
  }
}

/**
 * Whether a request's headers leave its answer to its URL: none that names a caller or an origin, and no body.
 * Plain reads: a name found through a (polluted) prototype only sends the request down the whole pipeline.
 */
function answersByUrl(headers: SiteRequest['headers']): boolean {
  if (headers.authorization !== undefined || headers['x-wp-nonce'] !== undefined || headers.origin !== undefined || headers['transfer-encoding'] !== undefined) return false;
  const length = headers['content-length'];
  return length === undefined || length === '0';
}

function responseOf(kept: unknown): SiteResponse | null {
  return kept === undefined ? null : (kept as SentAnswer).response;
}
