import { AnswerCache, answerCacheBounds, type AnswerCacheOptions } from './answer-cache.js';
import { FragmentCache, type FragmentCacheOptions } from './fragment-cache.js';
import { SentAnswers } from './sent-answers.js';
import { newApplicationPasswordRecord } from './auth/application-passwords.js';
import type { AuthenticateHook } from './auth/authenticate.js';
import { createNonce, DEFAULT_NONCE_LIFETIME, newNonceKey, NONCE_KEY_OPTION, verifyNonce, type NonceSubject } from './auth/nonce.js';
import { isRoleName, type RoleName } from './auth/roles.js';
import { type Clock, systemClock } from './clock.js';
import type { ApiError } from './http/api-error.js';
import { DEFAULT_BODY_LIMIT } from './http/body.js';
import { coreErrors } from './http/errors.js';
import type { CorsOption } from './http/headers.js';
import { handleRequest, resolveRoutePath, type PipelineContext } from './http/pipeline.js';
import { isPending } from './util/maybe.js';
import type { FileStorage } from './media/file-storage.js';
import { MediaLibrary, type MediaOptions } from './media/library.js';
import { oembedSettings, type OembedOptions, type OembedSettings } from './namespaces/oembed/proxy.js';
import type { SiteRequest, SiteResponse } from './http/request.js';
import { builtInNamespaces } from './namespaces/index.js';
import { RedirectEngine, type RedirectHooks } from './namespaces/redirection/runtime/engine.js';
import { builtInRoutes } from './registry/index-routes.js';
import { Registry } from './registry/registry.js';
import type { NamespaceDefinition } from './registry/types.js';
import { resolveSettings, SETTING_NAMES, type SiteSettings } from './settings.js';
import { consoleLogger, guardedLogger, type Logger } from './site-context.js';
import type { MailTransport } from './mail/transport.js';
import type { ChangeScope } from './store/change-scopes.js';
import type { UserRecord } from './store/records.js';
import type { SiteStore } from './store/repositories.js';
import { formatWpDate } from './time.js';
import { withoutTrailingSlashes } from './http/php.js';

export interface CreateSiteOptions<FrameworkRequest = unknown> {
  store: SiteStore;
  /** Site settings (WordPress option names); they win over settings saved in the store. */
  settings?: Partial<SiteSettings>;
  /** The namespaces to serve; all built-in ones by default. Add your own with `defineNamespace`. */
  namespaces?: readonly NamespaceDefinition[];
  /**
   * Resolves the caller from the host app's own session when no Basic credentials are sent. It gets the neutral
   * request and the framework's own (Express `req`, Fastify `request`). A caller it finds through a cookie needs
   * a nonce from `site.createNonce()`, as in WordPress (see `HookCredentials`).
   */
  authenticate?: AuthenticateHook<FrameworkRequest>;
  /**
   * Cross-origin reads. By default every Origin is echoed, as WordPress does (cookie sessions are still safe:
   * they need a nonce). `{ origins: [...] }` (or a test) limits that to some origins; `false` sends no CORS headers.
   */
  cors?: CorsOption;
  /** How long a nonce lives, in seconds (WordPress's nonce_life, a day): valid for half of it to all of it. */
  nonceLifetime?: number;
  /** Built-in application passwords over HTTP Basic (on by default). */
  applicationPasswords?: boolean | { authorizationUrl?: string };
  clock?: Clock;
  /** Where siterest reports failures (console by default). A logger that throws is ignored, never fatal. */
  logger?: Logger;
  /** Where the API is mounted when an adapter does not say (`/api`). */
  basePath?: string;
  /** Largest request body in bytes (10 MiB). */
  bodyLimit?: number;
  /** Reuse list answers while the store has not changed (on by default; its bounds: see answer-cache.ts). */
  cache?: boolean | AnswerCacheOptions;
  /**
   * Reuse each listed record's serialized JSON while the store has not changed, also when list answers are not
   * cached (on by default; its bounds: see fragment-cache.ts).
   */
  fragments?: boolean | FragmentCacheOptions;
  /** Where outgoing mail goes (contact forms); by default it is kept in the store's outbox. */
  mail?: MailTransport;
  /**
   * Where uploaded files are kept (media, form attachments): default a local `uploads` folder that the host
   * app serves at `<site url>/uploads`.
   */
  files?: FileStorage;
  /** Image sizes, upload limits, accepted types, image processing and outbound-request guards. */
  media?: Omit<MediaOptions, 'files'>;
  /** Extra trusted oEmbed providers and the proxy's cache lifetime. */
  oembed?: OembedOptions;
  /** Redirection's hooks into the host app: its signed-in user and its `custom` match predicates. */
  redirects?: RedirectHooks;
}

export interface NewUserInput {
  login: string;
  email?: string;
  displayName?: string;
  roles?: RoleName[];
  url?: string;
}

/** After the store failed to start, requests answer 503 at once for this long before the next attempt. */
const START_RETRY_MS = 5_000;

export class Site<FrameworkRequest = unknown> implements PipelineContext {
  readonly store: SiteStore;
  readonly registry: Registry;
  readonly logger: Logger;
  readonly basePath: string;
  readonly bodyLimit: number;
  readonly authenticateHook: AuthenticateHook<FrameworkRequest> | undefined;
  readonly mail: MailTransport | undefined;
  readonly cors: CorsOption | undefined;
  private readonly passwords: { enabled: boolean; authorizationUrl: string | null };
  readonly media: MediaLibrary;
  readonly oembed: OembedSettings;
  private readonly clock: Clock;
  private readonly configured: Partial<SiteSettings>;
  private readonly nonceLifetime: number;
  private current: SiteSettings;
  /** Settings reloads started, and the latest of them whose settings are `current` (see reloadSettings). */
  private reloadsStarted = 0;
  private reloadApplied = 0;
  private readiness: Promise<void> | null = null;
  private started = false;
  private startFailure: { at: number; error: unknown; logged: boolean } | null = null;
  private nonceKey: string | null = null;
  private unsubscribe: (() => void) | null = null;
  private readonly answers: AnswerCache | null;
  readonly sentAnswers: SentAnswers | null;
  readonly fragments: FragmentCache | null;
  readonly redirects: RedirectEngine;

  constructor(options: CreateSiteOptions<FrameworkRequest>) {
    this.store = options.store;
    this.registry = new Registry(options.namespaces ?? builtInNamespaces(), builtInRoutes);
    this.logger = guardedLogger(options.logger ?? consoleLogger);
    this.basePath = options.basePath ?? '/api';
    this.bodyLimit = options.bodyLimit ?? DEFAULT_BODY_LIMIT;
    this.authenticateHook = options.authenticate;
    this.mail = options.mail;
    this.cors = options.cors;
    this.nonceLifetime = options.nonceLifetime ?? DEFAULT_NONCE_LIFETIME;
    this.clock = options.clock ?? systemClock;
    this.configured = options.settings ?? {};
    const cacheOptions: AnswerCacheOptions = typeof options.cache === 'object' ? options.cache : {};
    this.answers = options.cache === false ? null : new AnswerCache(options.store, () => this.clock(), cacheOptions);
    // A store without a change version caches nothing. With an authenticate hook, only the app can say which
    // requests the hook finds no caller in (`cache.anonymous`).
    const versions = SentAnswers.storeOf(options.store);
    const anonymous = options.authenticate ? (cacheOptions.anonymous ?? null) : null;
    const bounds = answerCacheBounds(cacheOptions);
    // Answers as sent hold bytes the answer cache holds too: a quarter of its byte bound, which it estimates at
    // four bytes per character of JSON.
    this.sentAnswers =
      options.cache === false || (options.authenticate && !anonymous) || !versions
        ? null
        : new SentAnswers(versions, () => this.clock(), { ...bounds, maxBytes: bounds.maxBytes / 4 }, anonymous);
    this.fragments = options.fragments === false ? null : new FragmentCache(() => this.clock(), options.fragments === true ? {} : options.fragments);
    this.current = resolveSettings(this.configured);
    this.media = new MediaLibrary(this, { ...options.media, files: options.files });
    this.oembed = oembedSettings(options.oembed);
    this.redirects = new RedirectEngine(this);
    this.redirects.hooks = options.redirects ?? {};
    const passwords = options.applicationPasswords ?? true;
    this.passwords = {
      enabled: passwords !== false,
      authorizationUrl: (typeof passwords === 'object' && passwords.authorizationUrl) || null,
    };
  }

  /** Whether application passwords are on, and the page advertised for them (by default under the current site URL). */
  get applicationPasswords(): { enabled: boolean; authorizationUrl: string } {
    return {
      enabled: this.passwords.enabled,
      authorizationUrl: this.passwords.authorizationUrl ?? `${this.current.url}/wp-admin/authorize-application.php`,
    };
  }

  /** The file storage uploads go to (shared by every namespace that keeps files). */
  get files(): FileStorage {
    return this.media.files;
  }

  /** Whether a request's body is read by its route as a stream (uploads); adapters ask before buffering. */
  streamsBody(method: string, url: string, contentType: string): boolean {
    if (!contentType && method.toUpperCase() !== 'POST') return false;
    const q = url.indexOf('?');
    let path = q === -1 ? url : url.slice(0, q);
    try {
      path = decodeURIComponent(path);
    } catch {
      return false;
    }
    path = withoutTrailingSlashes(path) || '/';
    if (!path.startsWith('/')) path = `/${path}`;
    const match = this.registry.match(path, method.toUpperCase());
    return match?.endpoint.definition.streamsBody === true;
  }

  get settings(): SiteSettings {
    return this.current;
  }

  now(): number {
    return this.clock();
  }

  get keepsAnswers(): boolean {
    return this.answers !== null;
  }

  cached<T>(keyParts: readonly unknown[], scopes: readonly ChangeScope[], compute: (version?: number) => Promise<T>, onVersion?: (version: number) => void): Promise<T> {
    return this.answers ? this.answers.remember(keyParts, scopes, compute, onVersion, this.current) : compute();
  }

  /**
   * Prepares the store, loads saved settings and the nonce key. Call it when the app starts: it rejects with
   * the store's error (a database that cannot be reached, a schema that is not migrated), so the app can stop
   * instead of serving. Until it has succeeded, requests answer 503 `rest_service_unavailable`.
   */
  ready(): Promise<void> {
    this.readiness ??= (async () => {
      await this.store.init?.();
      // Another instance may change the saved settings; its notice (or a resync, '*') reloads them here.
      this.unsubscribe ??=
        this.store.subscribe?.(SETTINGS_CHANNEL, () => {
          this.reloadSettings().catch((error: unknown) => this.logger.warn('settings reload failed', { error: String(error) }));
        }) ?? null;
      await this.reloadSettings();
      this.nonceKey = await this.loadNonceKey();
      this.started = true;
      this.startFailure = null;
    })().catch((error: unknown) => {
      this.readiness = null;
      this.startFailure = { at: performance.now(), error, logged: false };
      throw error;
    });
    return this.readiness;
  }

  /** The key every instance on the same store signs nonces with: made once, kept as an option. */
  private async loadNonceKey(): Promise<string> {
    const key = await this.store.options.add(NONCE_KEY_OPTION, newNonceKey());
    if (typeof key !== 'string' || key.length < 32) throw new Error(`The option ${NONCE_KEY_OPTION} does not hold a usable key.`);
    return key;
  }

  /**
   * A nonce for a user's cookie session (user 0: a visitor who is not signed in), what wp_create_nonce('wp_rest')
   * gives a WordPress page: put it in the pages the app serves, for the `X-WP-Nonce` header or the `_wpnonce`
   * param. It is valid for 12 to 24 hours (`nonceLifetime`), on every instance that shares the store, and — when
   * `session` is given and the authenticate hook returns the same `session` — only within that session.
   */
  async createNonce(userId: number, options: { session?: string } = {}): Promise<string> {
    await this.ready();
    return this.createNonceFor({ userId, session: options.session });
  }

  createNonceFor(subject: NonceSubject): string {
    return createNonce(this.requireNonceKey(), subject, this.now(), this.nonceLifetime);
  }

  verifyNonceFor(nonce: unknown, subject: NonceSubject): 1 | 2 | false {
    return verifyNonce(this.requireNonceKey(), nonce, subject, this.now(), this.nonceLifetime);
  }

  private requireNonceKey(): string {
    if (this.nonceKey === null) throw new Error('The site is not ready: await site.ready() first.');
    return this.nonceKey;
  }

  /**
   * Reads the saved settings again (another instance's notice, or this one's update). Reloads can finish out of
   * order, each read on its own pooled connection: what a reload started later read is never overwritten by one
   * started earlier, which may have read before the latest write.
   */
  async reloadSettings(): Promise<void> {
    const ticket = ++this.reloadsStarted;
    const saved = await this.store.options.all();
    if (ticket < this.reloadApplied) return;
    this.reloadApplied = ticket;
    this.current = resolveSettings(saved, this.configured);
  }

  /** Saves settings in the store (settings given to createSite still win). */
  async updateSettings(patch: Partial<SiteSettings>): Promise<SiteSettings> {
    await this.ready();
    for (const name of SETTING_NAMES) {
      if (patch[name] !== undefined) await this.store.options.set(name, patch[name]);
    }
    await this.reloadSettings();
    await this.store.publish?.(SETTINGS_CHANNEL, 'changed');
    return this.current;
  }

  /**
   * Whether a path below the mount point (without the query) is siterest's: the API root (which also answers
   * `?rest_route=`) or a path inside one of its namespaces
   * (unknown routes there get WordPress's `rest_no_route`). Adapters pass other requests on to the host app.
   */
  serves(path: string): boolean {
    return this.registry.owns(resolveRoutePath(path, {}));
  }

  /**
   * The answer this request got a moment ago, when nothing but its URL decided it (see sent-answers.ts); else null,
   * and the request goes to `handle`. Adapters ask it first. Synchronous on a store that knows its change version
   * in-process (memory); a promise where the store is asked for it (PostgreSQL). `url` is the path below the mount
   * point with the query string, `basePath` the mount point as `handle` would get it.
   */
  sentAnswer(method: string, url: string, headers: SiteRequest['headers'], basePath: string = this.basePath): SiteResponse | null | Promise<SiteResponse | null> {
    return this.sentAnswers && this.started ? this.sentAnswers.find(method, url, headers, basePath, this.current) : null;
  }

  /**
   * Serves one neutral request. Adapters pass `bodyError` when the body could not be read (413, 400). While the
   * store cannot start, the answer is 503 `rest_service_unavailable`.
   */
  handle(request: SiteRequest, bodyError?: ApiError): Promise<SiteResponse> {
    // A promise whatever happens: anything thrown while answering (an app's logger that throws, say) rejects it.
    try {
      return Promise.resolve(this.answer(request, bodyError));
    } catch (error) {
      return Promise.reject(error as Error);
    }
  }

  /**
   * `handle` for adapters: the answer at once when no step had to wait for anything (an anonymous list on the
   * memory store), else a promise of it; await it. Spares a promise and a turn of the microtask queue per request.
   */
  answer(request: SiteRequest, bodyError?: ApiError): SiteResponse | Promise<SiteResponse> {
    if (!this.started) return this.startForRequests().then((unavailable) => handleRequest(this, request, unavailable ?? bodyError));
    const answer = handleRequest(this, request, bodyError);
    return isPending(answer) ? Promise.resolve(answer) : answer;
  }

  /** Starts the site for a request; after a failure, answers 503 at once until the next attempt is due. */
  private async startForRequests(): Promise<ApiError | undefined> {
    const failed = this.startFailure;
    if (failed && performance.now() - failed.at < START_RETRY_MS) return coreErrors.serviceUnavailable();
    try {
      await this.ready();
      return undefined;
    } catch {
      const failure = this.startFailure;
      if (failure && !failure.logged) {
        failure.logged = true;
        this.logger.error('the store could not be started; answering 503 until it can', { error: String(failure.error) });
      }
      return coreErrors.serviceUnavailable();
    }
  }

  async createUser(input: NewUserInput): Promise<UserRecord> {
    await this.ready();
    const roles = input.roles ?? ['subscriber'];
    for (const role of roles) if (!isRoleName(role)) throw new Error(`Unknown role "${String(role)}".`);
    if (await this.store.users.findByLogin(input.login)) throw new Error(`A user "${input.login}" already exists.`);
    return this.store.users.create({
      login: input.login,
      email: input.email ?? `${input.login}@example.com`,
      displayName: input.displayName ?? input.login,
      nicename: input.login.toLowerCase().replace(/[^a-z0-9_-]+/g, '-'),
      url: input.url ?? '',
      registered: formatWpDate(this.now(), 'UTC'),
      roles,
    });
  }

  /**
   * Creates an application password for a user (by id or login), random unless `password` is given. The
   * secret is returned once, here; only its hash is stored.
   */
  async createApplicationPassword(
    user: number | string,
    name: string,
    options: { password?: string } = {},
  ): Promise<{ password: string; uuid: string; userId: number }> {
    await this.ready();
    const record = typeof user === 'number' ? await this.store.users.get(user) : await this.store.users.findByLogin(user);
    if (!record) throw new Error(`No user ${String(user)}.`);
    const created = newApplicationPasswordRecord(record.id, name, Math.floor(this.now() / 1000), options.password);
    await this.store.applicationPasswords.create(created.record);
    return { password: created.password, uuid: created.record.uuid, userId: record.id };
  }

  /** Removes a user's application passwords of that name (the example servers rotate theirs on start). */
  async revokeApplicationPasswords(user: number, name: string): Promise<number> {
    await this.ready();
    const records = await this.store.applicationPasswords.listForUser(user);
    let removed = 0;
    for (const record of records) if (record.name === name && (await this.store.applicationPasswords.delete(record.uuid))) removed++;
    return removed;
  }

  async close(): Promise<void> {
    // Hits and log rows still queued are stored before the store closes.
    await this.redirects.close();
    this.unsubscribe?.();
    this.unsubscribe = null;
    await this.store.close?.();
  }
}

/** The store notification channel on which instances announce changed settings. */
const SETTINGS_CHANNEL = 'siterest.settings';

export function createSite<FrameworkRequest = unknown>(options: CreateSiteOptions<FrameworkRequest>): Site<FrameworkRequest> {
  return new Site(options);
}

