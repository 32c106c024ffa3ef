import type { SiteStore } from '../../store/repositories.js';
import { DEFAULT_ROBOTS_TXT, MAX_ROBOTS_TXT, SETTINGS_OPTION } from './constants.js';

/** What the checker reads: the site's visibility to search engines and its robots.txt. */
export interface SeoSettings {
  /** WordPress's `blog_public`: false is "Discourage search engines from indexing this site". */
  blogPublic: boolean;
  /** The robots.txt the site serves. */
  robotsTxt: string;
  /** Yoast's `onpage_indexability` feature switch: off, the checker answers `{ryte: false}`. */
  indexabilityCheck: boolean;
}

const DEFAULT_SEO_SETTINGS: Readonly<SeoSettings> = Object.freeze({ blogPublic: true, robotsTxt: DEFAULT_ROBOTS_TXT, indexabilityCheck: true });

/** The stored settings over the defaults; anything stored of the wrong type is ignored. */
export async function readSeoSettings(store: SiteStore): Promise<SeoSettings> {
  const stored = await store.options.get(SETTINGS_OPTION);
  const out: SeoSettings = { ...DEFAULT_SEO_SETTINGS };
  if (stored === null || typeof stored !== 'object' || Array.isArray(stored)) return out;
  const value = (name: keyof SeoSettings) => (Object.prototype.hasOwnProperty.call(stored, name) ? (stored as Record<string, unknown>)[name] : undefined);
  const blogPublic = value('blogPublic');
  const robotsTxt = value('robotsTxt');
  const indexabilityCheck = value('indexabilityCheck');
  if (typeof blogPublic === 'boolean') out.blogPublic = blogPublic;
  if (typeof robotsTxt === 'string') out.robotsTxt = robotsTxt.slice(0, MAX_ROBOTS_TXT);
  if (typeof indexabilityCheck === 'boolean') out.indexabilityCheck = indexabilityCheck;
  return out;
}

export async function writeSeoSettings(store: SiteStore, patch: Partial<SeoSettings>): Promise<SeoSettings> {
  const next = { ...(await readSeoSettings(store)) };
  if (patch.blogPublic !== undefined) next.blogPublic = patch.blogPublic === true;
  if (patch.robotsTxt !== undefined) {
    if (typeof patch.robotsTxt !== 'string') throw new TypeError('robotsTxt must be a string.');
    if (patch.robotsTxt.length > MAX_ROBOTS_TXT) throw new RangeError(`robotsTxt is larger than ${MAX_ROBOTS_TXT} characters.`);
    next.robotsTxt = patch.robotsTxt;
  }
  if (patch.indexabilityCheck !== undefined) next.indexabilityCheck = patch.indexabilityCheck === true;
  await store.options.set(SETTINGS_OPTION, next);
  return next;
}
