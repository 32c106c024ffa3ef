import robotsParser from 'robots-parser';
import type { ApiRequest } from '../../http/api-request.js';
import type { SiteStore } from '../../store/repositories.js';
import { CHECK_OPTION } from './constants.js';
import { readSeoSettings, type SeoSettings } from './settings.js';

/** WPSEO_OnPage_Option's statuses (only the two a local check can reach). */
const IS_INDEXABLE = 1;
const IS_NOT_INDEXABLE = 0;

/** Yoast lets the status be fetched again 15 seconds after the last fetch. */
const FETCH_INTERVAL_SECONDS = 15;

const LABELS = {
  good: 'Your homepage can be indexed by search engines.',
  bad: '<a href="https://yoa.st/onpageindexerror" target="_blank">Your homepage cannot be indexed by search engines</a>. This is very bad for SEO and should be fixed.',
};

interface Robots {
  isAllowed(url: string, ua?: string): boolean | undefined;
}

/**
 * Whether search engines may index the home page, decided here instead of by asking Ryte's service: the site
 * must not discourage search engines, and its robots.txt must let any crawler (`*`) fetch the home page.
 */
export function homeIndexable(settings: SeoSettings, home: string): boolean {
  if (!settings.blogPublic) return false;
  const robotsUrl = new URL('/robots.txt', home).href;
  const robots = (robotsParser as unknown as (url: string, text: string) => Robots)(robotsUrl, settings.robotsTxt);
  return robots.isAllowed(new URL(`${home}/`).href, '*') !== false;
}

/** The time of the previous check (Yoast's `last_fetch`), then this one's. */
async function recordCheck(store: SiteStore, status: number, now: number): Promise<number> {
  const previous = await store.options.get(CHECK_OPTION);
  const last =
    previous !== null && typeof previous === 'object' && Object.prototype.hasOwnProperty.call(previous, 'last_fetch') ? Number((previous as { last_fetch: unknown }).last_fetch) : 0;
  await store.options.set(CHECK_OPTION, { status, last_fetch: now });
  return Number.isFinite(last) ? last : 0;
}

/** Yoast's `ryte` route: `{ryte: false}` with the check switched off, else the home page's indexability. */
export async function checker(request: ApiRequest): Promise<Record<string, unknown>> {
  const store = request.site.store;
  const settings = await readSeoSettings(store);
  if (!settings.indexabilityCheck) return { ryte: false };
  const indexable = homeIndexable(settings, request.site.settings.home);
  const now = Math.floor(request.site.now() / 1000);
  const last = await recordCheck(store, indexable ? IS_INDEXABLE : IS_NOT_INDEXABLE, now);
  const canFetch = now - last > FETCH_INTERVAL_SECONDS;
  return indexable ? { ryte: { score: 'good', label: LABELS.good, can_fetch: canFetch } } : { ryte: { score: 'bad', label: LABELS.bad, can_fetch: canFetch } };
}
