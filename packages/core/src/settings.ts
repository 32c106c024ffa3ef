import { FixedOffsetZone, type Zone } from 'luxon';
import { withoutTrailingSlashes } from './http/php.js';
import { ianaZone } from './time.js';

/**
 * Site settings, named as WordPress names its options. Defaults are those of a fresh WordPress (UTC by offset,
 * `F j, Y` / `g:i a`, ten posts per page) with pretty permalinks, and The Events Calendar's defaults.
 */
export interface SiteSettings {
  name: string;
  description: string;
  url: string;
  home: string;
  timezone_string: string;
  gmt_offset: number;
  date_format: string;
  time_format: string;
  start_of_week: number;
  posts_per_page: number;
  admin_email: string;
  /** `""` for plain permalinks (`?p=1`), anything else for pretty ones. */
  permalink_structure: string;
  page_for_posts: number;
  page_on_front: number;
  show_on_front: 'posts' | 'page';
  site_logo: number;
  site_icon: number;
  site_icon_url: string;
  /** The Events Calendar: default currency and its position, permalink bases. */
  currency_symbol: string;
  currency_code: string;
  currency_position: 'prefix' | 'postfix';
  events_slug: string;
  single_event_slug: string;
  venue_slug: string;
  organizer_slug: string;
  category_base: string;
  tag_base: string;
}

export const DEFAULT_SETTINGS: Readonly<SiteSettings> = Object.freeze({
  name: 'My Site',
  description: '',
  url: 'http://localhost',
  home: '',
  timezone_string: '',
  gmt_offset: 0,
  date_format: 'F j, Y',
  time_format: 'g:i a',
  start_of_week: 1,
  posts_per_page: 10,
  admin_email: 'admin@example.com',
  permalink_structure: '/%postname%/',
  page_for_posts: 0,
  page_on_front: 0,
  show_on_front: 'posts',
  site_logo: 0,
  site_icon: 0,
  site_icon_url: '',
  currency_symbol: '$',
  currency_code: 'USD',
  currency_position: 'prefix',
  events_slug: 'events',
  single_event_slug: 'event',
  venue_slug: 'venue',
  organizer_slug: 'organizer',
  category_base: 'category',
  tag_base: 'tag',
});

export const SETTING_NAMES = Object.keys(DEFAULT_SETTINGS) as Array<keyof SiteSettings>;

/** Merges layers (lowest first), dropping unknown keys and normalising url/home. */
export function resolveSettings(...layers: Array<Partial<Record<string, unknown>> | undefined>): SiteSettings {
  const out: Record<string, unknown> = { ...DEFAULT_SETTINGS };
  for (const layer of layers) {
    if (!layer) continue;
    for (const name of SETTING_NAMES) {
      if (layer[name] !== undefined) out[name] = layer[name];
    }
  }
  const settings = out as unknown as SiteSettings;
  settings.url = withoutTrailingSlashes(String(settings.url));
  settings.home = withoutTrailingSlashes(String(settings.home || settings.url));
  settings.gmt_offset = Number(settings.gmt_offset) || 0;
  settings.posts_per_page = Math.trunc(Number(settings.posts_per_page)) || 10;
  return settings;
}

/** The site's time zone: the named zone if set, else the fixed UTC offset. */
export function siteZone(settings: Pick<SiteSettings, 'timezone_string' | 'gmt_offset'>): Zone {
  if (settings.timezone_string) {
    const zone = ianaZone(settings.timezone_string);
    if (zone.isValid) return zone;
  }
  return FixedOffsetZone.instance(Math.round(settings.gmt_offset * 60));
}

/** The `gmt_offset` WordPress reports: the stored option string, or the zone's current offset in hours. */
export function reportedGmtOffset(settings: SiteSettings, nowMs: number): string | number {
  if (settings.timezone_string) {
    const zone = siteZone(settings);
    return zone.offset(nowMs) / 60;
  }
  return String(settings.gmt_offset);
}
