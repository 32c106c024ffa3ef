import { createHash } from 'node:crypto';
import { OutboundRequestError } from '../../media/outbound.js';
import type { SiteContext } from '../../site-context.js';
import { escHtml, escUrl } from '../calendar/format/index.js';
import { embedResponse, embedSecret, findEmbeddable } from './embeds.js';
import { filterDiscoveredHtml } from './filter.js';
import { SANCTIONED_PROVIDERS, sanctionedEndpoint, type OembedProvider } from './providers.js';
import { parseOembedXml } from './xml.js';

export interface OembedOptions {
  /** Providers to trust besides WordPress's list (tried first): `{ pattern, endpoint }`. */
  providers?: readonly OembedProvider[];
  /** How long a provider's answer is kept (`rest_oembed_ttl`, a day). */
  ttlSeconds?: number;
}

/** What the proxy needs to know, resolved once per site. */
export interface OembedSettings {
  readonly providers: readonly OembedProvider[];
  readonly ttlSeconds: number;
}

export function oembedSettings(options: OembedOptions = {}): OembedSettings {
  return { providers: [...(options.providers ?? []), ...SANCTIONED_PROVIDERS], ttlSeconds: options.ttlSeconds ?? 86_400 };
}

/** WordPress's discovery read limit (150 KB) and a bound on provider answers. */
const DISCOVERY_BYTES = 153_600;
const ANSWER_BYTES = 1_048_576;

const LINK_TYPES: Record<string, 'json' | 'xml'> = {
  'application/json+oembed': 'json',
  'text/xml+oembed': 'xml',
  'application/xml+oembed': 'xml',
};

/**
 * shortcode_parse_atts for a `<link …>` tag's attributes (quoted or bare values). A name is only tried where a run
 * of name characters starts: tried inside a run, `[\w-]+\s*=` would read the rest of the run again from every
 * character of it (150 KB of `a-a-…` with no `=`: 20 s), and it could match there only where it already matched
 * from the run's start.
 */
function linkAttributes(text: string): Record<string, string> {
  // Names come from the page: kept without a prototype, so `constructor` or `__proto__` is a name like any.
  const out = Object.create(null) as Record<string, string>;
  const pattern = /(?<![\w-])([\w-]+)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/g;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    const name = match[1]!.toLowerCase();
    if (!Object.hasOwn(out, name)) out[name] = match[2] ?? match[3] ?? match[4] ?? '';
  }
  return out;
}

const decodeHref = (href: string) => href.replace(/&amp;/g, '&').replace(/&quot;/g, '"').replace(/&#0?39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>');

/**
 * The tags WP_oEmbed::discover reads (`#<link([^<>]+)/?>#iU`): their attributes end at the first `>` and hold no
 * `<`, so each is read once (reading from every `<link` to the next `>`, 150 KB of `<link` before one `>` took
 * 11 s).
 */
const LINK_TAG = /<link([^<>]+?)\/?>/gi;

/**
 * The provider endpoint a page's HTML announces (WP_oEmbed::discover): the first JSON `<link>`, else the first
 * XML one, in the head (the text before `</head>`, when there is one).
 */
export function discoveredEndpoint(page: string): string | null {
  const headEnd = page.search(/<\/head>/i);
  const html = headEnd > 0 ? page.slice(0, headEnd) : page;
  const lower = html.toLowerCase();
  if (!Object.keys(LINK_TYPES).some((type) => lower.includes(type))) return null;
  const found: Partial<Record<'json' | 'xml', string>> = {};
  for (const [, inside] of html.matchAll(LINK_TAG)) {
    const attributes = linkAttributes(inside!);
    const type = attributes.type;
    const format = type !== undefined && Object.hasOwn(LINK_TYPES, type) ? LINK_TYPES[type] : undefined;
    if (format && attributes.href && !found[format]) {
      found[format] = decodeHref(attributes.href);
      if (format === 'json') break;
    }
  }
  return found.json ?? found.xml ?? null;
}

/** WP_oEmbed::discover: the provider a page announces with `<link type="application/json+oembed" href>` in its head. */
async function discover(site: SiteContext, url: string): Promise<string | null> {
  let page;
  try {
    page = await site.media.outbound.fetch(url, { maxBytes: DISCOVERY_BYTES, overflow: 'truncate', headers: { accept: 'text/html' } });
  } catch (error) {
    if (error instanceof OutboundRequestError) return null;
    throw error;
  }
  return discoveredEndpoint(page.body.toString('utf8'));
}

function withQuery(endpoint: string, params: Array<[string, string]>): string {
  const url = new URL(endpoint);
  for (const [name, value] of params) url.searchParams.set(name, value);
  return url.href;
}

/** WP_oEmbed::fetch: JSON first, XML only when the provider answers 501 to JSON. */
async function fetchFromProvider(site: SiteContext, endpoint: string, url: string, width: number, height: number): Promise<Record<string, unknown> | null> {
  for (const format of ['json', 'xml'] as const) {
    let target: string;
    try {
      target = withQuery(endpoint, [
        ['maxwidth', String(width)],
        ['maxheight', String(height)],
        ['url', url],
        ['dnt', '1'],
        ['format', format],
      ]);
    } catch {
      return null;
    }
    let answer;
    try {
      answer = await site.media.outbound.fetch(target, { maxBytes: ANSWER_BYTES, headers: { accept: format === 'json' ? 'application/json' : 'text/xml' } });
    } catch (error) {
      if (error instanceof OutboundRequestError) return null;
      throw error;
    }
    if (answer.status === 501) continue;
    const body = answer.body.toString('utf8').trim();
    if (!body) return null;
    if (format === 'xml') return parseOembedXml(body);
    try {
      const data: unknown = JSON.parse(body);
      return data !== null && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>) : null;
    } catch {
      return null;
    }
  }
  return null;
}

const str = (value: unknown) => (typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '');

/** WP_oEmbed::data2html, then the discovery filter for providers WordPress does not trust. */
function toHtml(data: Record<string, unknown>, url: string, sanctioned: boolean): string | false {
  let html: string | false = false;
  switch (data.type) {
    case 'photo': {
      const numeric = (v: unknown) => (typeof v === 'number' && Number.isFinite(v)) || (typeof v === 'string' && /^\s*[+-]?(\d+\.?\d*|\.\d+)\s*$/.test(v));
      if (typeof data.url === 'string' && data.url && numeric(data.width) && numeric(data.height) && data.width && data.height) {
        const title = typeof data.title === 'string' ? data.title : '';
        html = `<a href="${escUrl(url)}"><img src="${escUrl(data.url)}" alt="${escHtml(title)}" width="${escHtml(str(data.width))}" height="${escHtml(str(data.height))}" /></a>`;
      }
      break;
    }
    case 'video':
    case 'rich':
      if (typeof data.html === 'string' && data.html) html = data.html;
      break;
    case 'link':
      if (typeof data.title === 'string' && data.title) html = `<a href="${escUrl(url)}">${escHtml(data.title)}</a>`;
      break;
    default:
      html = false;
  }
  if (html === false || sanctioned || (data.type !== 'rich' && data.type !== 'video')) return html;
  return filterDiscoveredHtml(html, embedSecret());
}

export interface ProxyParams {
  url: string;
  format: string;
  maxwidth: number;
  maxheight?: number;
  discover: boolean;
}

/**
 * WP_oEmbed_Controller::get_proxy_item: the cached answer when there is one; this site's own posts answered
 * directly; else the sanctioned provider or, with `discover`, the one the page announces; the answer's HTML
 * rendered (and reduced for discovered providers) and cached for the TTL. Null: nothing embeddable.
 */
export async function proxy(site: SiteContext, params: ProxyParams, cacheKeyParams: Record<string, unknown>): Promise<Record<string, unknown> | null> {
  const key = `oembed_${createHash('md5').update(JSON.stringify(cacheKeyParams)).digest('hex')}`;
  const cached = await site.store.oembedCache.get(key, site.now());
  if (cached && typeof cached === 'object') return cached as Record<string, unknown>;
  const own = await findEmbeddable(site, params.url);
  if (own) return embedResponse(site, own, params.maxwidth);
  const settings = site.oembed;
  let endpoint = sanctionedEndpoint(params.url, settings.providers);
  const sanctioned = endpoint !== null;
  if (!endpoint && params.discover) endpoint = await discover(site, params.url);
  if (!endpoint) return null;
  // wp_embed_defaults: without maxheight, 1.5 × the default width of 500, at most 1000.
  const height = params.maxheight ?? 750;
  const data = await fetchFromProvider(site, endpoint, params.url, params.maxwidth, height);
  if (!data) return null;
  data.html = toHtml(data, params.url, sanctioned);
  await site.store.oembedCache.set(key, data, site.now() + settings.ttlSeconds * 1000);
  await purgeExpired(site);
  return data;
}

/** How often expired answers are deleted, as WordPress's daily `delete_expired_transients` does (more often). */
const PURGE_EVERY_MS = 3_600_000;
const lastPurge = new WeakMap<SiteContext, number>();

/**
 * Deletes the expired answers, at most once an hour per site, after an answer is kept: each URL asked about adds
 * one, and an expired one is otherwise only ever replaced by the same URL's. A failure is logged, never answered.
 */
async function purgeExpired(site: SiteContext): Promise<void> {
  const now = site.now();
  const last = lastPurge.get(site);
  // A clock set back counts as time passed: the next answer kept purges.
  if (last !== undefined && now >= last && now - last < PURGE_EVERY_MS) return;
  lastPurge.set(site, now);
  try {
    await site.store.oembedCache.purge(now);
  } catch (error) {
    site.logger.warn('oembed: expired answers not deleted', { error: String(error) });
  }
}
