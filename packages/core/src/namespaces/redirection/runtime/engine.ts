import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { sessionPrincipal, type AuthenticateHook } from '../../../auth/authenticate.js';
import { hasCap, type Principal } from '../../../auth/principal.js';
import type { SiteRequest } from '../../../http/request.js';
import { siteZone } from '../../../settings.js';
import type { SiteContext } from '../../../site-context.js';
import type { NewRedirectLog, RedirectionRepositories } from '../../../store/redirection.js';
import { LIMITS, LOG_METHODS } from '../constants.js';
import { chosenTarget, conditionHolds, type MatchContext } from '../matchers.js';
import { installedSettings, readSettings, siteFlags, type RedirectionSettings } from '../settings.js';
import { cleanUrlText, rawUrlDecode, urlDecode } from '../url/encoding.js';
import { passQuery } from '../url/query.js';
import { RedirectMatcher, sourceMatches, type CompiledRedirect } from './matcher.js';
import { VisitRecorder, type RecorderBacklog } from './recorder.js';
import { Reloadable } from './reloadable.js';
import { transformTarget } from './transform.js';
import { EVENTS } from '../../calendar/events/kind.js';
import { permalink } from '../../calendar/posts/permalinks.js';
import { withoutTrailingSlashes } from '../../../http/php.js';

/** The store notification channel on which instances announce changed redirects or Redirection settings. */
export const REDIRECTION_CHANNEL = 'siterest.redirection';

/** A request of the host app, as the redirect middleware hands it over. */
export interface RedirectRequest {
  method: string;
  /** Path and query as received (`REQUEST_URI`). */
  url: string;
  /** Names in lower case. */
  headers: Record<string, string | string[] | undefined>;
  remoteAddress?: string;
  /** The connection is TLS (or a trusted proxy said so). */
  secure?: boolean;
  /** The framework's own request (Express `req`, Fastify `request`), handed to the site's authenticate hook. */
  frameworkRequest?: unknown;
}

export type RedirectDecision =
  /** Send this redirect. */
  | { action: 'redirect'; status: number; location: string; headers: Array<[string, string]> }
  /** Answer with this error status (the app's error page, no-cache headers). */
  | { action: 'error'; status: number; headers: Array<[string, string]> }
  /** Serve this local URL instead, invisibly to the client. */
  | { action: 'rewrite'; url: string }
  /** A redirect said "do nothing": the app answers, and a 404 is not logged. */
  | { action: 'nothing' }
  /**
   * Nothing matched: the app answers (with `headers`, the site-wide custom headers of the settings, added); a 404
   * is logged, or a `page` redirect sent instead of it.
   */
  | { action: 'continue'; onNotFound: (() => RedirectDecision | null) | null; headers?: Array<[string, string]> };

export interface RedirectHooks {
  /** The signed-in user of the host app, for the login and role match types (default: the site's authenticate hook). */
  principal?: (request: RedirectRequest) => Principal | null | Promise<Principal | null>;
  /** The `custom` match type: the host app's predicate named by the redirect's filter. */
  custom?: (filter: string, request: RedirectRequest) => boolean;
}

interface EngineSite extends SiteContext {
  readonly basePath: string;
  // Each adapter types the framework request; here it is passed through untouched.
  readonly authenticateHook: AuthenticateHook<any> | undefined;
}

const CONTINUE: RedirectDecision = { action: 'continue', onNotFound: null };
const NOT_LOGGED: RedirectDecision = { action: 'nothing' };
/** earlyDecision's answer when it needs the redirects and they are not loaded yet. */
const NEEDS_MATCHER = Symbol('needs matcher');
const NO_CACHE: Array<[string, string]> = [
  ['Expires', 'Wed, 11 Jan 1984 05:00:00 GMT'],
  ['Cache-Control', 'no-cache, must-revalidate, max-age=0, no-store, private'],
];
const EXPIRE_EVERY_MS = 60 * 60 * 1000;
const DAY_MS = 86_400_000;

/**
 * A custom header's value as Node can send it: control characters and characters beyond Latin-1 (`€`), which Node
 * refuses in a header (a throw in the middle of the app's answer), are left out. PHP would send their bytes; Node
 * cannot be made to send one encoding for them (it writes a header as Latin-1, or as UTF-8 when the app's body is
 * text), so siterest sends none (docs/compatibility.md).
 */
function wireHeaderValue(value: unknown): string {
  return String(value).replace(/[^\t\x20-\x7e\x80-\xff]/g, '');
}

function header(headers: RedirectRequest['headers'], name: string): string {
  const value = headers[name];
  return (Array.isArray(value) ? value[0] : value) ?? '';
}

/**
 * Redirection's front end for one site: it matches requests against the enabled redirects and records what it
 * did. The matcher is compiled once and rebuilt only after a change (announced on REDIRECTION_CHANNEL, so other
 * instances rebuild too); hits and log rows go through a batching recorder.
 */
export class RedirectEngine {
  hooks: RedirectHooks = {};
  private readonly recorder: VisitRecorder;
  private readonly loadedSettings: Reloadable<RedirectionSettings>;
  private readonly loadedMatcher: Reloadable<RedirectMatcher>;
  /** The loaded settings have no canonical-host rule and no site-wide header: a request's host and scheme change nothing. */
  private plainSettingsNow = false;
  private installed: Promise<void> | null = null;
  private unsubscribe: (() => void) | null = null;
  private lastExpiry = 0;
  /** The REST API's path with a trailing slash (the site's base path does not change). */
  private protectedBase: string | null = null;

  constructor(private readonly site: EngineSite) {
    this.recorder = new VisitRecorder(() => this.site.store.redirection, site.logger);
    const servingLast = (what: string) => (error: unknown) =>
      site.logger.warn(`redirection: the ${what} cannot be loaded; requests are checked against the ones loaded before`, { error: String(error) });
    const recovered = (what: string) => () => site.logger.info(`redirection: the ${what} are loaded again`);
    this.loadedSettings = new Reloadable(async () => readSettings(await this.repos.getSettings()), {
      loaded: (settings) => {
        this.plainSettingsNow = !settings.relocate && !settings.https && !settings.preferred_domain && !settings.aliases.length && !settings.headers.some((h) => h.location === 'site');
      },
      servingLast: servingLast('settings'),
      recovered: recovered('settings'),
    });
    this.loadedMatcher = new Reloadable(
      async () => {
        const settings = await this.loadedSettings.get();
        const records = await this.repos.redirects.all({ status: 'enabled' });
        return new RedirectMatcher(records, siteFlags(settings));
      },
      { servingLast: servingLast('redirects'), recovered: recovered('redirects') },
    );
  }

  private get repos(): RedirectionRepositories {
    return this.site.store.redirection;
  }

  /** Installs Redirection on first use of the store (two default groups) and listens for changes. */
  ready(): Promise<void> {
    this.installed ??= (async () => {
      this.unsubscribe ??=
        this.site.store.subscribe?.(REDIRECTION_CHANNEL, (payload) => {
          if (payload === 'settings' || payload === '*') this.forgetSettings();
          this.forgetMatcher();
        }) ?? null;
      await this.repos.install(
        [
          { name: 'Redirections', moduleId: 1, status: 'enabled', position: 0 },
          { name: 'Modified Posts', moduleId: 1, status: 'enabled', position: 1 },
        ],
        (ids) => installedSettings(ids[0] ?? 0) as unknown as Record<string, unknown>,
      );
    })().catch((error: unknown) => {
      this.installed = null;
      throw error;
    });
    return this.installed;
  }

  /** The settings, for the REST API: rejects when the store cannot be read. */
  async settings(): Promise<RedirectionSettings> {
    await this.ready();
    return this.loadedSettings.get();
  }

  /** The settings for a request of the host app: while the store cannot be read, the ones loaded before (Reloadable). */
  private async requestSettings(): Promise<RedirectionSettings> {
    await this.ready();
    return this.loadedSettings.getOrLast();
  }

  private forgetSettings(): void {
    this.loadedSettings.forget();
    this.plainSettingsNow = false;
  }

  private forgetMatcher(): void {
    this.loadedMatcher.forget();
  }

  async saveSettings(settings: RedirectionSettings): Promise<void> {
    await this.repos.setSettings(settings as unknown as Record<string, unknown>);
    await this.changed('settings');
  }

  /** After redirects (or settings) changed: rebuild here and tell the other instances. */
  async changed(kind: 'redirects' | 'settings' = 'redirects'): Promise<void> {
    if (kind === 'settings') this.forgetSettings();
    this.forgetMatcher();
    await this.site.store.publish?.(REDIRECTION_CHANNEL, kind);
  }

  /** Forgets everything (after the plugin's "delete"): the next use installs again. */
  async reset(): Promise<void> {
    this.installed = null;
    this.loadedSettings.clear();
    this.loadedMatcher.clear();
    this.forgetSettings();
    await this.changed('settings');
  }

  /** Writes queued hits and log rows now. */
  flush(): Promise<void> {
    return this.recorder.flush();
  }

  /** What waits to be written (hits, log rows) and how many log rows were dropped because too many waited. */
  backlog(): RecorderBacklog {
    return this.recorder.waiting();
  }

  async close(): Promise<void> {
    this.unsubscribe?.();
    this.unsubscribe = null;
    await this.recorder.close();
  }

  /** Decides what to do with a request of the host app (it never throws: on a store failure the app answers). */
  async handle(request: RedirectRequest): Promise<RedirectDecision> {
    try {
      return await this.decide(request);
    } catch (error) {
      this.site.logger.warn('redirection: request not checked for redirects', { error: String(error) });
      return CONTINUE;
    }
  }

  /** Called once the app has answered: logs a 404 when nothing else handled the request. */
  afterResponse(request: RedirectRequest, decision: RedirectDecision, status: number): void {
    if (status === 404 && decision.action === 'continue') this.notFound(request);
  }

  /** Logs a 404 the app answered to a request no redirect handled (when 404 logging is on). */
  notFound(request: RedirectRequest): void {
    void this.requestSettings()
      .then((settings) => {
        if (settings.expire_404 < 0) return;
        this.recorder.notFoundLog(this.logRow(request, settings, { url: this.requestUrl(request.url), httpCode: 404 }));
        this.expireLater(settings);
      })
      .catch((error: unknown) => this.site.logger.warn('redirection: 404 not logged', { error: String(error) }));
  }

  private async decide(request: RedirectRequest): Promise<RedirectDecision> {
    const settings = await this.requestSettings();
    const decision = await this.decideWith(request, settings);
    // Redirection's custom headers for the whole site go on every answer of the app.
    if (decision.action === 'continue' && settings.headers.some((h) => h.location === 'site')) {
      const headers = settings.headers.filter((h) => h.location === 'site').map((h): [string, string] => [String(h.headerName), wireHeaderValue(h.headerValue)]);
      return { ...decision, headers };
    }
    return decision;
  }

  /**
   * The decision for a request, when it can be made at once: settings and redirects already loaded, and the
   * answer one that tries no redirect (canonical host, the REST API, a URL no redirect could match). Null when
   * the request needs `handle()`. The middleware asks this first, so that the app's own pages — most requests —
   * pay for no promise; `handle()` decides the same for them.
   */
  /**
   * The middleware's first and cheapest look, from the URL alone, for the app's own pages on a site without a
   * canonical-host rule or site-wide headers: 'pass' when the app answers and nothing is to be watched (the REST
   * API, or 404 logging off), 'watch-404' when the app answers and a 404 of its is to be logged (`notFound`), null
   * when the request needs `handleNow` or `handle` (nothing loaded yet, such settings, or a redirect that may
   * match). No object is made for the request: the adapters build it only for a 404.
   */
  passNow(url: string): 'pass' | 'watch-404' | null {
    const settings = this.loadedSettings.current;
    const matcher = this.loadedMatcher.current;
    if (!settings || !matcher || !this.plainSettingsNow) return null;
    if (matcher.plainMiss(url)) return this.isProtected(url) || settings.expire_404 < 0 ? 'pass' : 'watch-404';
    const decoded = rawUrlDecode(this.requestUrl(url));
    if (!decoded || this.isProtected(decoded)) return 'pass';
    if (matcher.size !== 0 && matcher.candidates(decoded).length) return null;
    return settings.expire_404 < 0 ? 'pass' : 'watch-404';
  }

  handleNow(request: RedirectRequest): RedirectDecision | null {
    const settings = this.loadedSettings.current;
    if (!settings || settings.headers.some((h) => h.location === 'site')) return null;
    try {
      const early = this.earlyDecision(request, settings, this.loadedMatcher.current);
      return early !== NEEDS_MATCHER && 'action' in early ? early : null;
    } catch {
      return null;
    }
  }

  /**
   * Everything decided before a redirect is tried: the decision, or the URL forms and candidates to try. The
   * redirects are needed only past the canonical-host and REST API checks: without them loaded, NEEDS_MATCHER.
   */
  private earlyDecision(
    request: RedirectRequest,
    settings: RedirectionSettings,
    matcher: RedirectMatcher | null,
  ): RedirectDecision | { decoded: string; original: string; candidates: readonly CompiledRedirect[] } | typeof NEEDS_MATCHER {
    const url = this.requestUrl(request.url);
    const canonical = this.canonical(request, url, settings);
    if (canonical) return canonical;
    const decoded = rawUrlDecode(url);
    // The REST API is never redirected, and its 404s are not the site's (they are not logged either).
    if (!decoded || this.isProtected(decoded)) return NOT_LOGGED;
    if (!matcher) return NEEDS_MATCHER;
    if (matcher.size === 0) return CONTINUE;
    const candidates = matcher.candidates(decoded);
    if (!candidates.length) return CONTINUE;
    const q = url.indexOf('?');
    const original = q === -1 ? decoded : `${rawUrlDecode(url.slice(0, q))}${url.slice(q)}`;
    return { decoded, original, candidates };
  }

  private async decideWith(request: RedirectRequest, settings: RedirectionSettings): Promise<RedirectDecision> {
    let early = this.earlyDecision(request, settings, this.loadedMatcher.current);
    if (early === NEEDS_MATCHER) early = this.earlyDecision(request, settings, await this.loadedMatcher.getOrLast());
    if (early === NEEDS_MATCHER || 'action' in early) return early === NEEDS_MATCHER ? CONTINUE : early;
    const { decoded, original, candidates } = early;
    let principal: Promise<Principal | null> | null = null;
    const ctx = this.matchContext(request, settings, () => (principal ??= this.principalOf(request)));
    const pages: CompiledRedirect[] = [];
    for (const redirect of candidates) {
      if (!sourceMatches(redirect, decoded)) continue;
      if (redirect.record.matchType === 'page') {
        pages.push(redirect);
        continue;
      }
      const needsPrincipal = redirect.record.matchType === 'login' || redirect.record.matchType === 'role' || /\[user|%user/.test(JSON.stringify(redirect.record.actionData ?? ''));
      const who = needsPrincipal ? await ctx.principal() : null;
      const matched = conditionHolds(redirect.record.matchType, redirect.record.actionData, { ...ctx.match, loggedIn: who !== null, hasRole: (role) => hasRole(who, role) });
      const decision = await this.act(redirect, matched, { request, settings, original, who });
      if (decision) return decision;
    }
    if (!pages.length) return CONTINUE;
    const page = pages[0]!;
    return {
      action: 'continue',
      onNotFound: () => this.actNow(page, { request, settings, original, who: null }),
    };
  }

  private async act(redirect: CompiledRedirect, matched: boolean, env: ActEnv): Promise<RedirectDecision | null> {
    const { record } = redirect;
    const needsTarget = record.actionType === 'url' || record.actionType === 'pass';
    if (needsTarget) {
      const target = this.target(redirect, matched, env);
      if (!target) return null;
      return this.visit(redirect, target, env);
    }
    if (!matched) return null;
    if (record.actionType === 'error') {
      return { action: 'error', status: record.actionCode || 404, headers: [...NO_CACHE, ['X-Redirect-By', 'redirection']] };
    }
    if (record.actionType === 'nothing') return { action: 'nothing' };
    if (record.actionType === 'random') {
      const location = await this.randomPost();
      return location ? this.redirectTo(record.actionCode || 301, location, env.settings) : null;
    }
    return null;
  }

  /** A `page` redirect when the app answered 404: decided synchronously from the compiled redirect. */
  private actNow(redirect: CompiledRedirect, env: ActEnv): RedirectDecision | null {
    const target = this.target(redirect, true, env);
    return target ? this.visit(redirect, target, env) : null;
  }

  private target(redirect: CompiledRedirect, matched: boolean, env: ActEnv): string {
    const { record, flags } = redirect;
    let target = chosenTarget(record.matchType, record.actionData, matched);
    if (!target) return '';
    if (record.regex && redirect.pattern) {
      target = redirect.pattern.replace(env.original, target);
      const q = target.indexOf('?');
      target = q === -1 ? target.replace(/ /g, '%20') : `${target.slice(0, q).replace(/ /g, '%20')}${target.slice(q).replace(/ /g, '+')}`;
    }
    if (flags.flag_query === 'pass') target = passQuery(target, env.original, flags.flag_case);
    return transformTarget(target, env.who, this.site.now());
  }

  /** Records the visit and returns the action (url or pass). */
  private visit(redirect: CompiledRedirect, target: string, env: ActEnv): RedirectDecision {
    const { record } = redirect;
    const now = this.site.now();
    if (env.settings.track_hits) this.recorder.hit(record.id, now);
    if (env.settings.expire_redirect !== -1 && record.matchData?.options?.log_exclude !== true) {
      this.recorder.redirectLog(
        this.logRow(env.request, env.settings, {
          url: urlDecode(env.original),
          httpCode: record.actionCode,
          sentTo: target,
          redirectionId: record.id,
          redirectBy: 'redirection',
        }),
      );
      this.expireLater(env.settings);
    }
    if (record.actionType === 'pass') return this.pass(target);
    return this.redirectTo(record.actionCode, target, env.settings);
  }

  private pass(target: string): RedirectDecision {
    // A local target is served in place of the request; a remote one is redirected to (see compatibility.md).
    if (/^https?:\/\//i.test(target)) {
      try {
        const url = new URL(target);
        const home = new URL(this.site.settings.home);
        if (url.host !== home.host) return { action: 'redirect', status: 302, location: target, headers: [['X-Redirect-By', 'redirection']] };
        return { action: 'rewrite', url: `${url.pathname}${url.search}` };
      } catch {
        return CONTINUE;
      }
    }
    return { action: 'rewrite', url: target.startsWith('/') ? target : `/${target}` };
  }

  private redirectTo(status: number, location: string, settings: RedirectionSettings): RedirectDecision {
    const headers: Array<[string, string]> = [];
    if (status === 307) headers.push(...NO_CACHE);
    else if (status === 301 && settings.redirect_cache !== 0) {
      if (settings.redirect_cache === -1) headers.push(...NO_CACHE);
      else {
        const seconds = settings.redirect_cache * 3600;
        headers.push(['Expires', new Date(this.site.now() + seconds * 1000).toUTCString()], ['Cache-Control', `max-age=${seconds}`]);
      }
    }
    if (status !== 307) {
      // Site headers, then redirect headers (which win over site headers of the same name).
      const custom = new Map<string, [string, string]>();
      for (const location of ['site', 'redirect']) {
        for (const h of settings.headers) if (h.location === location) custom.set(String(h.headerName).toLowerCase(), [String(h.headerName), wireHeaderValue(h.headerValue)]);
      }
      headers.push(...custom.values());
    }
    headers.push(['X-Redirect-By', 'redirection']);
    return { action: 'redirect', status, location, headers };
  }

  /** Redirection's canonical checks: relocate the whole site, force HTTPS, preferred www, alias hosts. */
  private canonical(request: RedirectRequest, url: string, settings: RedirectionSettings): RedirectDecision | null {
    // The common case, a site with no canonical-host setting, needs no look at the host.
    if (!settings.relocate && !settings.https && !settings.preferred_domain && !settings.aliases.length) return null;
    if (settings.relocate) {
      if (/^\/(wp-admin|wp-login\.php)/.test(url) || this.isProtected(url)) return null;
      return this.redirectTo(301, `${settings.relocate}${url}`, settings);
    }
    const host = header(request.headers, 'host').toLowerCase();
    if (settings.https && !request.secure && host) return this.redirectTo(301, `https://${host}${url}`, settings);
    const bare = host.replace(/:\d+$/, '');
    let wanted = bare;
    if (settings.preferred_domain === 'www' && bare && !bare.startsWith('www.')) wanted = `www.${bare}`;
    if (settings.preferred_domain === 'nowww' && bare.startsWith('www.')) wanted = bare.slice(4);
    if (settings.aliases.includes(bare)) wanted = new URL(this.site.settings.home).hostname;
    if (wanted !== bare) {
      const port = host.slice(bare.length);
      return this.redirectTo(301, `${request.secure ? 'https' : 'http'}://${wanted}${port}${url}`, settings);
    }
    return null;
  }

  /** REQUEST_URI as Redirection reads it: cut at a line break, control characters removed, bounded. */
  private requestUrl(raw: string): string {
    const url = cleanUrlText(raw.includes('\\') ? raw.replace(/\\\//g, '/') : raw);
    return url.length > 8 * LIMITS.url ? url.slice(0, 8 * LIMITS.url) : url;
  }

  /** The REST API is never redirected. */
  private isProtected(decodedUrl: string): boolean {
    const base = (this.protectedBase ??= `${withoutTrailingSlashes(this.site.basePath)}/`);
    return decodedUrl.startsWith(base) || (decodedUrl.length === base.length - 1 && base.startsWith(decodedUrl)) || decodedUrl.startsWith('/?rest_route=');
  }

  private matchContext(request: RedirectRequest, settings: RedirectionSettings, principal: () => Promise<Principal | null>) {
    const match: MatchContext = {
      headers: request.headers,
      ip: this.clientIp(request, settings),
      host: header(request.headers, 'host').toLowerCase().replace(/:\d+$/, '').replace(/^\[|\]$/g, ''),
      loggedIn: false,
      hasRole: () => false,
      custom: (filter) => {
        try {
          return this.hooks.custom?.(filter, request) === true;
        } catch {
          return false;
        }
      },
      notFound: false,
    };
    return { match, principal };
  }

  private async principalOf(request: RedirectRequest): Promise<Principal | null> {
    try {
      if (this.hooks.principal) return (await this.hooks.principal(request)) ?? null;
      if (!this.site.authenticateHook) return null;
      const q = request.url.indexOf('?');
      const siteRequest: SiteRequest = {
        method: request.method,
        path: q === -1 ? request.url : request.url.slice(0, q),
        query: q === -1 ? '' : request.url.slice(q + 1),
        headers: request.headers,
        remoteAddress: request.remoteAddress,
      };
      // The host app's session only: front-end pages are not signed with application passwords.
      return await sessionPrincipal(this.site, siteRequest, request.frameworkRequest);
    } catch {
      return null;
    }
  }

  /** REMOTE_ADDR, or a proxy header when the connection comes from a trusted proxy (or none is configured). */
  private clientIp(request: RedirectRequest, settings: RedirectionSettings): string {
    const remote = request.remoteAddress ?? '';
    let ip = remote;
    if (settings.ip_headers.length && (settings.ip_proxy.length === 0 || settings.ip_proxy.includes(normalize(remote) ?? remote))) {
      for (const name of settings.ip_headers) {
        if (name === 'REMOTE_ADDR') break;
        const value = header(request.headers, name.replace(/^HTTP_/, '').toLowerCase().replace(/_/g, '-'));
        if (value) {
          ip = value.split(',')[0]!.trim();
          break;
        }
      }
    }
    return normalize(ip) ?? '';
  }

  private loggedIp(request: RedirectRequest, settings: RedirectionSettings): string {
    const ip = this.clientIp(request, settings);
    if (settings.ip_logging === 0 || !ip) return '';
    if (settings.ip_logging === 1) return ip;
    const parsed = ipaddr.parse(ip);
    if (parsed.kind() === 'ipv4') return ip.replace(/\.\d+$/, '.0');
    const parts = (parsed as ipaddr.IPv6).parts.slice(0, 3);
    return new ipaddr.IPv6([...parts, 0, 0, 0, 0, 0]).toString();
  }

  private logRow(
    request: RedirectRequest,
    settings: RedirectionSettings,
    fields: { url: string; httpCode: number; sentTo?: string; redirectionId?: number; redirectBy?: string },
  ): NewRedirectLog {
    const host = header(request.headers, 'host').replace(/:\d+$/, '');
    const method = request.method.toUpperCase();
    const referrer = header(request.headers, 'referer');
    let requestData: Record<string, unknown> | null = null;
    if (settings.log_header) {
      const headers = Object.create(null) as Record<string, string>;
      for (const [name, value] of Object.entries(request.headers)) {
        if (name === 'cookie' || name === 'host' || value === undefined) continue;
        const key = name.replace(/(^|-)([a-z])/g, (_, dash: string, ch: string) => dash + ch.toUpperCase());
        headers[key] = (Array.isArray(value) ? value.join(', ') : value).slice(0, 1000);
      }
      requestData = { headers };
    }
    return {
      created: this.site.now(),
      url: cleanUrlText(fields.url).slice(0, LIMITS.url),
      domain: `${request.secure ? 'https' : 'http'}://${host}`.slice(0, 255),
      ip: this.loggedIp(request, settings).slice(0, 45),
      agent: header(request.headers, 'user-agent').slice(0, 255),
      referrer: referrer ? referrer.slice(0, 255) : null,
      httpCode: fields.httpCode,
      requestMethod: LOG_METHODS.includes(method) ? method : '',
      requestData,
      sentTo: (fields.sentTo ?? '').slice(0, LIMITS.url),
      redirectionId: fields.redirectionId ?? 0,
      redirectBy: (fields.redirectBy ?? '').toLowerCase().slice(0, 50),
    };
  }

  /** Redirection's daily log expiry, run at most once an hour as logging goes on. */
  private expireLater(settings: RedirectionSettings): void {
    const now = this.site.now();
    if (now - this.lastExpiry < EXPIRE_EVERY_MS) return;
    this.lastExpiry = now;
    void this.expireLogs(settings).catch((error: unknown) => this.site.logger.warn('redirection: log expiry failed', { error: String(error) }));
  }

  /** Deletes log rows older than the settings keep them (0 days = forever), 20000 a run as upstream. */
  async expireLogs(settings?: RedirectionSettings): Promise<{ redirects: number; notFound: number }> {
    const s = settings ?? (await this.settings());
    const now = this.site.now();
    const out = { redirects: 0, notFound: 0 };
    if (s.expire_redirect > 0) out.redirects = await this.repos.redirectLog.expire(now - s.expire_redirect * DAY_MS, 20_000);
    if (s.expire_404 > 0) out.notFound = await this.repos.notFoundLog.expire(now - s.expire_404 * DAY_MS, 20_000);
    return out;
  }

  private async randomPost(): Promise<string | null> {
    const events = this.site.store.events;
    const { total } = await events.list({ statuses: ['publish'], orderBy: 'start', offset: 0, limit: 1 });
    if (!total) return null;
    const page = await events.list({ statuses: ['publish'], orderBy: 'start', offset: Math.floor(Math.random() * total), limit: 1 });
    const event = page.items[0];
    return event ? permalink(event, EVENTS, this.site.settings) : null;
  }

  /** Dates of log rows and last hits are shown in the site's zone. Private: its type is luxon's, kept out of the public types. */
  private zone() {
    return siteZone(this.site.settings);
  }
}

interface ActEnv {
  request: RedirectRequest;
  settings: RedirectionSettings;
  original: string;
  who: Principal | null;
}

function normalize(ip: string): string | null {
  const trimmed = ip.trim();
  if (isIP(trimmed) === 0) return null;
  return ipaddr.process(trimmed).toString();
}

/** `current_user_can( $role )`: a role the user has, or a capability. */
function hasRole(principal: Principal | null, role: string): boolean {
  if (!principal || !role) return false;
  return principal.roles.includes(role) || hasCap(principal, role);
}
