import { describeArg, type ArgSpec } from '../args/spec.js';
import type { SiteContext } from '../site-context.js';
import type { EndpointDefinition, Handler, NamespaceDefinition, Permission, RouteDefinition } from './types.js';

export interface CompiledEndpoint {
  methods: string[];
  args: Record<string, ArgSpec>;
  /** Fixed defaults (frozen: requests share them). */
  defaults: Record<string, unknown>;
  /** Defaults that follow the site's settings and clock. */
  dynamicDefaults: Array<[string, (site: SiteContext) => unknown]>;
  /** The last defaults worked out with the dynamic ones: for which settings, at which second of the clock. */
  defaultsAt: { settings: object; second: number; values: Readonly<Record<string, unknown>> } | null;
  permission: Permission | undefined;
  handler: Handler;
  showInIndex: boolean;
  definition: EndpointDefinition;
}

export interface CompiledRoute {
  /** The full WordPress pattern, as the index shows it: `/cal/events/v1/events/(?P<id>\d+)`. */
  pattern: string;
  /** The pattern with variables as `{id}` (OpenAPI paths, the index's `_links` rule). */
  template: string;
  namespace: string;
  endpoints: CompiledEndpoint[];
  definition: RouteDefinition | null;
  /** Lower-cased literal start of the pattern, tested before the regex. */
  readonly prefix: string;
  readonly regex: RegExp;
}

export interface RouteMatch {
  route: CompiledRoute;
  endpoint: CompiledEndpoint;
  params: Record<string, string>;
}

/** WordPress patterns use PCRE named groups `(?P<id>…)`; JavaScript spells them `(?<id>…)`. */
function compilePattern(pattern: string): RegExp {
  return new RegExp(`^${pattern.replace(/\(\?P</g, '(?<')}$`, 'i');
}

export function patternTemplate(pattern: string): string {
  return pattern.replace(/\(\?P<(\w+?)>.*?\)/g, '{$1}');
}

/** The first path segment a literal prefix names whole (`/cal/events/v1` → `cal`), or null (`/`, `/oembed`). */
function segmentOf(prefix: string): string | null {
  const end = prefix.indexOf('/', 1);
  return end === -1 ? null : prefix.slice(1, end);
}

function literalPrefix(pattern: string): string {
  const cut = pattern.search(/[([\\.*+?|{^$]/);
  return (cut === -1 ? pattern : pattern.slice(0, cut)).toLowerCase();
}

export function parseMethods(methods: string | readonly string[]): string[] {
  const list = typeof methods === 'string' ? methods.split(',') : [...methods];
  return list.map((m) => m.trim().toUpperCase()).filter(Boolean);
}

/**
 * A default and everything in it, frozen: every request without the param shares the one value, so a handler that
 * pushed to a default list (`default: []`) would have changed it for every later request. Frozen, such a change
 * throws, and the request gets WordPress's error instead of the next ones getting its leftovers.
 */
function frozenDefault<T>(value: T, seen = new WeakSet<object>()): T {
  // A buffer's bytes cannot be frozen (Object.freeze throws on them): such a default stays as it is.
  if (typeof value !== 'object' || value === null || seen.has(value) || ArrayBuffer.isView(value)) return value;
  seen.add(value);
  Object.freeze(value);
  // Also inside a value frozen already: Object.freeze reaches one level down.
  for (const key of Reflect.ownKeys(value)) frozenDefault((value as Record<PropertyKey, unknown>)[key], seen);
  return value;
}

function compileEndpoint(definition: EndpointDefinition): CompiledEndpoint {
  const args = definition.args ?? {};
  const defaults: Record<string, unknown> = {};
  const dynamicDefaults: Array<[string, (site: SiteContext) => unknown]> = [];
  for (const [name, spec] of Object.entries(args)) {
    if (spec.defaultFrom) dynamicDefaults.push([name, spec.defaultFrom]);
    else if (spec.default !== undefined) defaults[name] = frozenDefault(spec.default);
  }
  return {
    methods: parseMethods(definition.methods),
    args,
    defaults: Object.freeze(defaults),
    dynamicDefaults,
    defaultsAt: null,
    permission: definition.permission,
    handler: definition.handler,
    showInIndex: definition.showInIndex !== false,
    definition,
  };
}

/**
 * An endpoint's defaults for a request: the fixed ones with those that follow the settings and the clock, worked
 * out once per settings object and second (the finest any default shows) and shared, frozen, by the requests of
 * that second — the events list's default window of dates is formatted in the site's zone, once, not per request.
 */
export function endpointDefaults(endpoint: CompiledEndpoint, site: SiteContext): Readonly<Record<string, unknown>> {
  if (!endpoint.dynamicDefaults.length) return endpoint.defaults;
  const settings = site.settings;
  const second = Math.floor(site.now() / 1000);
  const kept = endpoint.defaultsAt;
  if (kept && kept.settings === settings && kept.second === second) return kept.values;
  const values: Record<string, unknown> = { ...endpoint.defaults };
  for (const [name, resolve] of endpoint.dynamicDefaults) values[name] = frozenDefault(resolve(site));
  endpoint.defaultsAt = { settings, second, values: Object.freeze(values) };
  return endpoint.defaultsAt.values;
}

function compileRoute(pattern: string, namespace: string, endpoints: EndpointDefinition[], definition: RouteDefinition | null): CompiledRoute {
  return {
    pattern,
    template: patternTemplate(pattern),
    namespace,
    endpoints: endpoints.map(compileEndpoint),
    definition,
    prefix: literalPrefix(pattern),
    regex: compilePattern(pattern),
  };
}

export interface BuiltInRoutes {
  root: EndpointDefinition;
  namespaceIndex: (namespace: string) => EndpointDefinition;
}

/**
 * Every route of the site, in registration order: the root, then each namespace's index route followed by
 * its routes. The router, the indexes, `Allow` headers, OPTIONS answers and the OpenAPI document all read it.
 */
export class Registry {
  readonly routes: CompiledRoute[] = [];
  readonly namespaces: string[] = [];
  readonly definitions = new Map<string, NamespaceDefinition>();
  /** Each namespace's path, lower-cased, as `owns` compares it on every request an adapter is given. */
  private readonly namespacePaths: string[] = [];
  /**
   * For each first path segment a route's literal prefix names, the routes a path beginning with it can match, in
   * registration order: those of that segment and those whose prefix names no whole segment (the root). Matching
   * walked all of the site's routes (some seventy), testing each prefix, on every request.
   */
  private readonly bySegment = new Map<string, CompiledRoute[]>();
  /** The routes a path whose first segment no route names can match. */
  private readonly anySegment: CompiledRoute[];

  constructor(namespaces: readonly NamespaceDefinition[], builtIns: BuiltInRoutes) {
    this.routes.push(compileRoute('/', '', [builtIns.root], null));
    for (const ns of namespaces) {
      if (this.definitions.has(ns.namespace)) throw new Error(`Namespace "${ns.namespace}" is registered twice.`);
      this.definitions.set(ns.namespace, ns);
      this.namespaces.push(ns.namespace);
      this.namespacePaths.push(`/${ns.namespace.toLowerCase()}`);
      this.routes.push(compileRoute(`/${ns.namespace}`, ns.namespace, [builtIns.namespaceIndex(ns.namespace)], null));
      for (const route of ns.routes) {
        this.routes.push(compileRoute(`/${ns.namespace}${route.path}`, ns.namespace, route.endpoints, route));
      }
    }
    this.anySegment = this.routes.filter((route) => segmentOf(route.prefix) === null);
    for (const route of this.routes) {
      const segment = segmentOf(route.prefix);
      if (segment !== null && !this.bySegment.has(segment)) {
        this.bySegment.set(segment, this.routes.filter((other) => segmentOf(other.prefix) === segment || segmentOf(other.prefix) === null));
      }
    }
  }

  /** The routes `lower` (a lower-cased path) can match, in registration order. */
  private candidates(lower: string): readonly CompiledRoute[] {
    const end = lower.indexOf('/', 1);
    return this.bySegment.get(end === -1 ? lower.slice(1) : lower.slice(1, end)) ?? this.anySegment;
  }

  /**
   * Whether a route path is siterest's to answer: the API root, or anything inside one of its namespaces (where
   * an unknown route is WordPress's `rest_no_route`). Adapters pass everything else on to the host app.
   */
  owns(path: string): boolean {
    if (path === '/') return true;
    const lower = path.toLowerCase();
    return (
      this.namespacePaths.some((prefix) => lower.startsWith(prefix) && (lower.length === prefix.length || lower[prefix.length] === '/')) ||
      this.findRoute(path) !== null
    );
  }

  /** The first route whose pattern matches, whatever the method (OPTIONS, Allow). */
  findRoute(path: string): { route: CompiledRoute; params: Record<string, string> } | null {
    const lower = path.toLowerCase();
    for (const route of this.candidates(lower)) {
      if (!lower.startsWith(route.prefix)) continue;
      const match = route.regex.exec(path);
      if (match) return { route, params: { ...(match.groups ?? {}) } };
    }
    return null;
  }

  /**
   * WordPress match_request_to_handler: routes in order, and within a route the first endpoint accepting the
   * method (HEAD falls back to GET); a route that matches the path but not the method lets later routes try.
   */
  match(path: string, method: string): RouteMatch | null {
    const lower = path.toLowerCase();
    for (const route of this.candidates(lower)) {
      if (!lower.startsWith(route.prefix)) continue;
      const match = route.regex.exec(path);
      if (!match) continue;
      const endpoint =
        route.endpoints.find((e) => e.methods.includes(method)) ??
        (method === 'HEAD' ? route.endpoints.find((e) => e.methods.includes('GET')) : undefined);
      if (endpoint) return { route, endpoint, params: { ...(match.groups ?? {}) } };
    }
    return null;
  }

  routesOf(namespace: string): CompiledRoute[] {
    return this.routes.filter((route) => route.namespace === namespace);
  }

  /**
   * A route as the indexes describe it (WordPress get_data_for_route), or null when hidden.
   * `help` context (OPTIONS) adds nothing more here: routes carry no separate item schema.
   */
  describeRoute(route: CompiledRoute, apiRoot: string, site?: SiteContext, context: 'view' | 'help' = 'help'): Record<string, unknown> | null {
    const methods: string[] = [];
    const endpoints: Array<Record<string, unknown>> = [];
    let links: Record<string, unknown> | undefined;
    for (const endpoint of route.endpoints) {
      if (!endpoint.showInIndex) continue;
      methods.push(...endpoint.methods);
      const args: Record<string, unknown> = {};
      for (const [name, spec] of Object.entries(endpoint.args)) args[name] = describeArg(spec, site);
      endpoints.push({ methods: endpoint.methods, args: Object.keys(args).length ? args : [] });
      if (!route.template.includes('{')) {
        links = { self: [{ href: apiRoot + route.pattern.replace(/^\//, '') }] };
      }
    }
    if (!methods.length) return null;
    const data: Record<string, unknown> = { namespace: route.namespace, methods, endpoints };
    // WordPress adds a route's schema in the help context (OPTIONS) only.
    if (context === 'help' && route.definition?.schema) data.schema = route.definition.schema();
    if (links) data._links = links;
    return data;
  }

  describeRoutes(routes: readonly CompiledRoute[], apiRoot: string, site?: SiteContext): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const route of routes) {
      const data = this.describeRoute(route, apiRoot, site, 'view');
      if (data) out[route.pattern] = data;
    }
    return out;
  }
}
