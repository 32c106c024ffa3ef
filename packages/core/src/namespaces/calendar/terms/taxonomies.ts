import type { SiteSettings } from '../../../settings.js';
import { CATEGORY_TAXONOMY, EVENT_TYPE, TAG_TAXONOMY } from '../constants.js';

/** What differs between event categories and event tags on the wire and in the rules. */
export interface TaxonomyConfig {
  taxonomy: string;
  hierarchical: boolean;
  /** Path segment of our routes: `categories` or `tags`. */
  restBase: 'categories' | 'tags';
  /** WordPress's own REST base for the taxonomy (term `_links` and `Location` point there, as upstream). */
  wpRestBase: string;
  /** Post types listed under the term's `wp:post_type` links. */
  wpObjectTypes: readonly string[];
  /** Query var of those links. */
  wpQueryVar: string;
  /** Capability managing terms, besides the events `edit_posts` cap. */
  manageCap: string;
  singular: string;
  plural: string;
  /** The term archive URL (front end). */
  archiveUrl(settings: SiteSettings, slugPath: string[]): string;
}

function pretty(settings: SiteSettings): boolean {
  return settings.permalink_structure !== '';
}

export const CATEGORIES: TaxonomyConfig = {
  taxonomy: CATEGORY_TAXONOMY,
  hierarchical: true,
  restBase: 'categories',
  wpRestBase: CATEGORY_TAXONOMY,
  wpObjectTypes: [EVENT_TYPE, 'tec_calendar_embed'],
  wpQueryVar: CATEGORY_TAXONOMY,
  manageCap: 'publish_cal_events',
  singular: 'event category',
  plural: 'event categories',
  archiveUrl: (settings, slugPath) =>
    pretty(settings)
      ? `${settings.home}/${settings.events_slug}/${settings.category_base}/${slugPath.join('/')}/`
      : `${settings.home}/?${CATEGORY_TAXONOMY}=${slugPath[slugPath.length - 1]}`,
};

export const TAGS: TaxonomyConfig = {
  taxonomy: TAG_TAXONOMY,
  hierarchical: false,
  restBase: 'tags',
  wpRestBase: 'tags',
  wpObjectTypes: ['posts', EVENT_TYPE, 'tec_calendar_embed'],
  wpQueryVar: 'tags',
  manageCap: 'manage_categories',
  singular: 'event tag',
  plural: 'event tags',
  archiveUrl: (settings, slugPath) =>
    pretty(settings)
      ? `${settings.home}/${settings.tag_base}/${slugPath[slugPath.length - 1]}/`
      : `${settings.home}/?tag=${slugPath[slugPath.length - 1]}`,
};

export function taxonomyConfig(taxonomy: string): TaxonomyConfig {
  return taxonomy === CATEGORY_TAXONOMY ? CATEGORIES : TAGS;
}
