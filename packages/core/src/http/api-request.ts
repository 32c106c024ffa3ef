import type { Principal } from '../auth/principal.js';
import { hasCap } from '../auth/principal.js';
import type { CompiledEndpoint, CompiledRoute } from '../registry/registry.js';
import type { SiteContext } from '../site-context.js';
import type { RequestBody, UploadedFile } from './request.js';
import { requestObject } from './php.js';
import type { Maybe } from '../util/maybe.js';

export interface ParamSources {
  json: Record<string, unknown>;
  form: Record<string, unknown>;
  query: Record<string, unknown>;
  url: Record<string, unknown>;
  defaults: Readonly<Record<string, unknown>>;
}

export type ParamSource = keyof ParamSources;

export interface ApiRequestInit {
  site: SiteContext;
  method: string;
  rawMethod: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  query: Record<string, unknown>;
  json: Record<string, unknown> | null;
  form: Record<string, unknown>;
  files: UploadedFile[];
  /** The request body as it came (raw bytes, multipart, or a stream for routes that read it themselves). */
  body?: RequestBody;
  principal: Principal | null;
  apiRoot: string;
  remoteAddress?: string;
  jsonContentType: boolean;
}

/** Methods whose form body is read as params (PHP's `$_POST`). */
const FORM_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The sources in lookup order: [plain, form, JSON, JSON and form], made once. */
const SOURCE_ORDERS: ReadonlyArray<readonly ParamSource[]> = [
  ['query', 'url', 'defaults'],
  ['form', 'query', 'url', 'defaults'],
  ['json', 'query', 'url', 'defaults'],
  ['json', 'form', 'query', 'url', 'defaults'],
];

/**
 * A request as handlers see it: WordPress's WP_REST_Request. Params are looked up JSON body → form body →
 * query string → URL → defaults, and after validation hold their sanitized values.
 */
export class ApiRequest {
  readonly site: SiteContext;
  /** The method after `_method` / `X-HTTP-Method-Override`. */
  readonly method: string;
  readonly rawMethod: string;
  readonly path: string;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly files: UploadedFile[];
  readonly body: RequestBody | undefined;
  readonly principal: Principal | null;
  /** Absolute URL of the API root, with a trailing slash. */
  readonly apiRoot: string;
  readonly remoteAddress: string | undefined;
  route: CompiledRoute | null = null;
  endpoint: CompiledEndpoint | null = null;
  private readonly sources: ParamSources;
  private readonly sentQuery: Readonly<Record<string, unknown>>;
  private readonly order: readonly ParamSource[];
  /** The sources' objects in lookup order (what `get` walks: no lookup of each source by name). */
  private chain: Array<Record<string, unknown>> | null = null;
  /** What `get` reads (see effective); null until asked, and after a source is replaced. */
  private merged: Record<string, unknown> | null = null;
  private readonly memo = new Map<string, unknown>();

  constructor(init: ApiRequestInit) {
    this.site = init.site;
    this.method = init.method;
    this.rawMethod = init.rawMethod;
    this.path = init.path;
    this.headers = init.headers;
    this.files = init.files;
    this.body = init.body;
    this.principal = init.principal;
    this.apiRoot = init.apiRoot;
    this.remoteAddress = init.remoteAddress;
    this.sources = { json: init.json ?? {}, form: init.form, query: init.query, url: {}, defaults: {} };
    this.sentQuery = { ...init.query };
    this.order = SOURCE_ORDERS[(init.jsonContentType ? 2 : 0) + (FORM_METHODS.has(this.method) ? 1 : 0)]!;
  }

  /** The sources' objects in lookup order, made when first read after a source was replaced. */
  private sourceChain(): Array<Record<string, unknown>> {
    let chain = this.chain;
    if (chain) return chain;
    chain = [];
    for (let i = 0; i < this.order.length; i++) chain.push(this.sources[this.order[i]!]);
    return (this.chain = chain);
  }

  private relink(): void {
    this.chain = null;
    this.merged = null;
  }

  /**
   * The effective value of every param (what `get` gives), worked out once the sources are set: the argument phases
   * and handlers ask for dozens of params per request, most of them absent, and each walked every source.
   */
  private effective(): Record<string, unknown> {
    let merged = this.merged;
    if (merged) return merged;
    merged = Object.create(null) as Record<string, unknown>;
    const chain = this.sourceChain();
    for (let index = chain.length - 1; index >= 0; index--) {
      const params = chain[index]!;
      // Own keys only: a param named `constructor` or `__proto__` is one the caller did or did not send.
      const keys = Object.keys(params);
      for (let k = 0; k < keys.length; k++) {
        const value = params[keys[k]!];
        if (value !== undefined && value !== null) merged[keys[k]!] = value;
      }
    }
    this.merged = merged;
    return merged;
  }

  /** The effective value of one param, from the sources (as PHP's isset: null and undefined count as absent). */
  private lookUp(name: string): unknown {
    const chain = this.sourceChain();
    for (let index = 0; index < chain.length; index++) {
      const params = chain[index]!;
      if (!Object.hasOwn(params, name)) continue;
      const value = params[name];
      if (value !== undefined && value !== null) return value;
    }
    return undefined;
  }

  setUrlParams(params: Record<string, unknown>): void {
    this.sources.url = params;
    this.relink();
  }

  /** The endpoint's defaults: read, never written (requests share them; see endpointDefaults). */
  setDefaults(defaults: Readonly<Record<string, unknown>>): void {
    this.sources.defaults = defaults;
    this.relink();
  }

  /** The effective value of a param (null and undefined count as absent, as PHP's isset). */
  get<T = unknown>(name: string): T | undefined {
    return this.effective()[name] as T | undefined;
  }

  has(name: string): boolean {
    return this.get(name) !== undefined;
  }

  /** Whether the client sent the param (defaults do not count). */
  provided(name: string): boolean {
    return this.order.some((source) => source !== 'defaults' && Object.hasOwn(this.sources[source], name) && this.sources[source][name] != null);
  }

  /** Which source the effective value comes from. */
  sourceOf(name: string): ParamSource | undefined {
    return this.order.find((source) => Object.hasOwn(this.sources[source], name) && this.sources[source][name] != null);
  }

  /** WordPress set_param: replaces the value wherever the param is set, else adds it to the first source. */
  set(name: string, value: unknown): void {
    let found = false;
    for (const source of this.order) {
      // Never the defaults: they are the endpoint's, shared by requests.
      if (source === 'defaults') continue;
      const params = this.sources[source];
      if (Object.hasOwn(params, name)) {
        params[name] = value;
        found = true;
      }
    }
    // The first source is never the defaults (the query string always comes before them).
    const first = this.order[0]!;
    if (!found && first !== 'defaults') this.sources[first][name] = value;
    const merged = this.merged;
    if (merged) {
      const effective = this.lookUp(name);
      if (effective === undefined) delete merged[name];
      else merged[name] = effective;
    }
  }

  /** All params merged by precedence. */
  all(): Record<string, unknown> {
    const merged = requestObject();
    for (const source of [...this.order].reverse()) {
      for (const [key, value] of Object.entries(this.sources[source])) {
        if (value !== undefined && value !== null) merged[key] = value;
      }
    }
    return merged;
  }

  /** The variables of the route's path (WordPress get_url_params). */
  urlParams(): Record<string, unknown> {
    return this.sources.url;
  }

  /** The query-string params as sent. */
  queryParams(): Record<string, unknown> {
    return this.sources.query;
  }

  /** The JSON body's params (WordPress get_json_params), or null when the body was not sent as JSON. */
  jsonParams(): Record<string, unknown> | null {
    return this.order.includes('json') ? this.sources.json : null;
  }

  /** The form-body params as sent (urlencoded or multipart; PHP's `$_POST`). */
  formParams(): Record<string, unknown> {
    return this.sources.form;
  }

  /** The query string's params exactly as the client sent them, before any sanitizing (WordPress get_query_params). */
  sentQueryParams(): Readonly<Record<string, unknown>> {
    return this.sentQuery;
  }

  header(name: string): string | undefined {
    const value = this.headers[name.toLowerCase()];
    return Array.isArray(value) ? value[0] : value;
  }

  get isLoggedIn(): boolean {
    return this.principal !== null;
  }

  can(cap: string): boolean {
    return hasCap(this.principal, cap);
  }

  /** 401 for anonymous callers, 403 for signed-in ones (WordPress rest_authorization_required_code). */
  get authorizationStatus(): 401 | 403 {
    return this.principal ? 403 : 401;
  }

  /** Absolute URL below the API root (`restUrl('cal/events/v1/events')`). */
  restUrl(path = ''): string {
    return this.apiRoot + path.replace(/^\/+/, '');
  }

  /** Memoises a lookup for the life of the request (permission checks and handlers share records). */
  remember<T>(key: string, load: () => Maybe<T>): Maybe<T> {
    if (this.memo.has(key)) return this.memo.get(key) as Maybe<T>;
    const loaded = load();
    this.memo.set(key, loaded);
    return loaded;
  }

  forget(key: string): void {
    this.memo.delete(key);
  }
}
