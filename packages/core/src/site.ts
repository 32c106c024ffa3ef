import { AnswerCache } from './answer-cache.js';
import { newApplicationPasswordRecord } from './auth/application-passwords.js';
import type { AuthenticateHook } from './auth/authenticate.js';
import { isRoleName, type RoleName } from './auth/roles.js';
import { type Clock, systemClock } from './clock.js';
import type { ApiError } from './http/api-error.js';
import { DEFAULT_BODY_LIMIT } from './http/body.js';
import { handleRequest, type PipelineContext } from './http/pipeline.js';
import type { SiteRequest, SiteResponse } from './http/request.js';
import { builtInNamespaces } from './namespaces/index.js';
import { RedirectEngine, type RedirectHooks } from './namespaces/redirection/runtime/engine.js';
import { builtInRoutes } from './registry/index-routes.js';
import { Registry } from './registry/registry.js';
import type { NamespaceDefinition } from './registry/types.js';
import { resolveSettings, SETTING_NAMES, type SiteSettings } from './settings.js';
import { consoleLogger, type Logger } from './site-context.js';
import type { UserRecord } from './store/records.js';
import type { SiteStore } from './store/repositories.js';
import { formatWpDate } from './time.js';

export interface CreateSiteOptions {
  store: SiteStore;
  /** Site settings (WordPress option names); they win over settings saved in the store. */
  settings?: Partial<SiteSettings>;
  /** The namespaces to serve; all built-in ones by default. Add your own with `defineNamespace`. */
  namespaces?: readonly NamespaceDefinition[];
  /** Resolves the caller from the host app's own session when no Basic credentials are sent. */
  authenticate?: AuthenticateHook;
  /** Built-in application passwords over HTTP Basic (on by default). */
  applicationPasswords?: boolean | { authorizationUrl?: string };
  clock?: Clock;
  logger?: Logger;
  /** Where the API is mounted when an adapter does not say (`/api`). */
  basePath?: string;
  /** Largest request body in bytes (10 MiB). */
  bodyLimit?: number;
  /** Reuse list answers while the store has not changed (on by default; see answer-cache.ts). */
  cache?: boolean;
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

export class Site implements PipelineContext {
  readonly store: SiteStore;
  readonly registry: Registry;
  readonly logger: Logger;
  readonly basePath: string;
  readonly bodyLimit: number;
  readonly authenticateHook: AuthenticateHook | undefined;
  readonly applicationPasswords: { enabled: boolean; authorizationUrl: string };
  private readonly clock: Clock;
  private readonly configured: Partial<SiteSettings>;
  private current: SiteSettings;
  private readiness: Promise<void> | null = null;
  private unsubscribe: (() => void) | null = null;
  private readonly answers: AnswerCache | null;
  readonly redirects: RedirectEngine;

  constructor(options: CreateSiteOptions) {
    this.store = options.store;
    this.registry = new Registry(options.namespaces ?? builtInNamespaces(), builtInRoutes);
    this.logger = options.logger ?? consoleLogger;
    this.basePath = options.basePath ?? '/api';
    this.bodyLimit = options.bodyLimit ?? DEFAULT_BODY_LIMIT;
    this.authenticateHook = options.authenticate;
    this.clock = options.clock ?? systemClock;
    this.configured = options.settings ?? {};
    this.answers = options.cache === false ? null : new AnswerCache(options.store);
    this.current = resolveSettings(this.configured);
    this.redirects = new RedirectEngine(this);
    this.redirects.hooks = options.redirects ?? {};
    const passwords = options.applicationPasswords ?? true;
    this.applicationPasswords = {
      enabled: passwords !== false,
      authorizationUrl:
        (typeof passwords === 'object' && passwords.authorizationUrl) ||
        `${this.current.url}/wp-admin/authorize-application.php`,
    };
  }

  get settings(): SiteSettings {
    return this.current;
  }

  now(): number {
    return this.clock();
  }

  cached<T>(key: string, compute: () => Promise<T>): Promise<T> {
    return this.answers ? this.answers.remember(key, compute) : compute();
  }

  /** Prepares the store and loads saved settings; `handle` calls it on first use. */
  ready(): Promise<void> {
    this.readiness ??= (async () => {
      await this.store.init?.();
      // Another instance may change the saved settings; its notice (or a resync, '*') reloads them here.
      this.unsubscribe ??=
        this.store.subscribe?.(SETTINGS_CHANNEL, () => {
          this.reloadSettings().catch((error: unknown) => this.logger.warn('settings reload failed', { error: String(error) }));
        }) ?? null;
      await this.reloadSettings();
    })().catch((error: unknown) => {
      this.readiness = null;
      throw error;
    });
    return this.readiness;
  }

  async reloadSettings(): Promise<void> {
    const saved = await this.store.options.all();
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

  /** Serves one neutral request. Adapters pass `bodyError` when the body could not be read (413, 400). */
  async handle(request: SiteRequest, bodyError?: ApiError): Promise<SiteResponse> {
    try {
      await this.ready();
    } catch (error) {
      this.logger.error('the store could not be initialised', { error: String(error) });
    }
    return handleRequest(this, request, bodyError);
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
export const SETTINGS_CHANNEL = 'siterest.settings';

export function createSite(options: CreateSiteOptions): Site {
  return new Site(options);
}

export { SETTING_NAMES };
