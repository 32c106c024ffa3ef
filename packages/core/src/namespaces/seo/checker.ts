import robotsParser from 'robots-parser';
import type { ApiRequest } from '../../http/api-request.js';
import { readSeoSettings, type SeoSettings } from './settings.js';

/** WPSEO_OnPage_Option's statuses (only the two a local check can reach). */
const IS_INDEXABLE = 1;
const IS_NOT_INDEXABLE = 0;

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
function homeIndexable(settings: SeoSettings, home: string): boolean {
  if (!settings.blogPublic) return false;
  const robotsUrl = new URL('/robots.txt', home).href;
  const robots = (robotsParser as unknown as (url: string, text: string) => Robots)(robotsUrl, settings.robotsTxt);
  return robots.isAllowed(new URL(`${home}/`).href, '*') !== false;
}

/** Yoast's `ryte` route: `{ryte: false}` with the check switched off, else the home page's indexability. */
export async function checker(request: ApiRequest): Promise<Record<string, unknown>> {
  const store = request.site.store;
  const settings = await readSeoSettings(store);
  if (!settings.indexabilityCheck) return { ryte: false };
  // The status is worked out afresh for every answer: it was just "fetched", so there is nothing to fetch again
  // (Yoast's can_fetch is true only 15 seconds after the last fetch).
  const status = homeIndexable(settings, request.site.settings.home) ? IS_INDEXABLE : IS_NOT_INDEXABLE;
  return status === IS_INDEXABLE
    ? { ryte: { score: 'good', label: LABELS.good, can_fetch: false } }
    : { ryte: { score: 'bad', label: LABELS.bad, can_fetch: false } };
}
