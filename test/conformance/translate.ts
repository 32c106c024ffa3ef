/*
 * The systematic translation from a WordPress capture to what siterest must answer (conformance/README.md):
 * base path, namespace, post type and taxonomy names; and, for the indexes, only the routes siterest serves.
 */
const ORIGIN = 'http://127.0.0.1:8080';

const STRING_RULES: Array<[RegExp, string]> = [
  [/\/wp-json\//g, '/api/'],
  [/tribe\/events\/v1/g, 'cal/events/v1'],
  [/tribe_events_cat/g, 'cal_events_cat'],
  [/tribe_events/g, 'cal_events'],
  [/tribe_venue/g, 'cal_venue'],
  [/tribe_organizer/g, 'cal_organizer'],
];

export function translateString(text: string): string {
  let out = text;
  for (const [pattern, replacement] of STRING_RULES) out = out.replace(pattern, replacement);
  return out;
}

/** Translates every key and string value, keeping key order. */
export function translateValue(value: unknown): unknown {
  if (typeof value === 'string') return translateString(value);
  if (Array.isArray(value)) return value.map(translateValue);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [translateString(k), translateValue(v)]));
  }
  return value;
}

/** The request path below siterest's API root, with its query string. */
export function translatePath(path: string): string {
  if (path.startsWith('/wp-json')) return translateString(path.slice('/wp-json'.length)) || '/';
  // `/?rest_route=/…` at the site root becomes the same form at the API root.
  return translateString(path);
}

/** Namespaces siterest serves (so far): the calendar, Redirection, oEmbed and, of WordPress core's `wp/v2`, the media routes. */
function servedNamespace(namespace: string): boolean {
  return namespace === 'cal/events/v1' || namespace === 'redirection/v1' || namespace === 'oembed/1.0' || namespace === 'wp/v2';
}

const SERVED_WP_V2 = new Set(['/wp/v2', '/wp/v2/media', '/wp/v2/media/(?P<id>[\\d]+)']);

/**
 * The calendar's post routes of `wp/v2` (docs/compatibility.md): siterest serves reading and updating one post,
 * with the fields TEC clients set there, and no batch requests. The captured route is reduced to that.
 */
const CALENDAR_POST_ROUTE = /^\/wp\/v2\/cal_(venue|organizer|events)\/\(\?P<id>\[\\d\]\+\)$/;
const SERVED_POST_ARGS: Record<string, string[]> = {
  GET: ['id', 'context', 'excerpt_length', 'password'],
  POST: ['id', 'date', 'date_gmt', 'slug', 'status', 'password', 'title', 'content', 'excerpt', 'featured_media'],
};

function servedPostRoute(route: Record<string, any>): Record<string, any> {
  const endpoints = (route.endpoints as Array<Record<string, any>>)
    .filter((endpoint) => SERVED_POST_ARGS[endpoint.methods[0]])
    .map(({ allow_batch: _batch, ...endpoint }): Record<string, any> => ({
      ...endpoint,
      args: Object.fromEntries(Object.entries(endpoint.args).filter(([name]) => SERVED_POST_ARGS[endpoint.methods[0]]!.includes(name))),
    }));
  return { ...route, methods: endpoints.flatMap((endpoint) => endpoint.methods as string[]), endpoints };
}

function servedRoute(pattern: string, namespace: string): boolean {
  return namespace === 'wp/v2' ? SERVED_WP_V2.has(pattern) || CALENDAR_POST_ROUTE.test(pattern) : servedNamespace(namespace);
}

/**
 * What the captured site registered for attachments that siterest does not have: Event Aggregator's and the
 * action scheduler's post statuses, and The Events Calendar's event meta (registered for every post type).
 */
function withoutAddOns(route: Record<string, any>): Record<string, any> {
  for (const endpoint of route.endpoints ?? []) {
    const args = endpoint.args;
    if (!args || Array.isArray(args)) continue;
    if (Array.isArray(args.status?.enum)) args.status.enum = args.status.enum.filter((s: string) => ['publish', 'future', 'draft', 'pending', 'private'].includes(s));
    if (args.meta?.properties) args.meta.properties = {};
  }
  return route;
}

/** Root and namespace indexes list only what siterest serves; theme links do not exist here. */
export function translateIndex(body: Record<string, any>): Record<string, any> {
  const out = translateValue(body) as Record<string, any>;
  if (Array.isArray(out.namespaces)) out.namespaces = out.namespaces.filter(servedNamespace);
  if (out.routes) {
    out.routes = Object.fromEntries(
      Object.entries(out.routes as Record<string, { namespace: string }>)
        .filter(([pattern, route]) => pattern === '/' || servedRoute(pattern, route.namespace))
        .map(([pattern, route]) => [pattern, route.namespace === 'wp/v2' ? withoutAddOns(CALENDAR_POST_ROUTE.test(pattern) ? servedPostRoute(route) : route) : route]),
    );
  }
  if (out._links?.['wp:active-theme']) {
    delete out._links['wp:active-theme'];
    if (!Object.keys(out._links).some((rel) => rel.startsWith('wp:'))) delete out._links.curies;
  }
  return out;
}

export const SITE_ORIGIN = ORIGIN;

/** Decodes the numeric and named entities WordPress's antispambot scatters through e-mail addresses. */
function decodeEntities(text: string): string {
  return text
    .replace(/&#x([0-9a-f]+);/gi, (_, hex: string) => String.fromCodePoint(parseInt(hex, 16)))
    .replace(/&#(\d+);/g, (_, dec: string) => String.fromCodePoint(Number(dec)))
    .replace(/&amp;/g, '&');
}

/** E-mail values are encoded at random by WordPress on every request; compare them decoded. */
export function normalizeEmails(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(normalizeEmails);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, k === 'email' && typeof v === 'string' ? decodeEntities(v) : normalizeEmails(v)]),
    );
  }
  return value;
}
