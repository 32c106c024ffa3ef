import { DateTime } from 'luxon';
import type { SiteSettings } from '../../../settings.js';
import type { EventRecord, OrganizerRecord, VenueRecord } from '../../../store/records.js';
import { WP_FORMAT, readWpDate } from '../../../time.js';
import { antispambot, type RandomSource } from './antispambot.js';
import { costRows, jsonLdPrice } from './cost.js';
import { escHtml, escJs, escUrl } from './escape.js';
import { jsonLdDescriptionOf } from './memoized.js';
import { renderTitle } from './render.js';
import { isUtcOffset, isValidTimezone, siteTimezoneName, zoneFromUtcOffset, zoneOf } from './timezones.js';

/*
 * schema.org objects as TEC adds them to single GET responses (`json_ld`): tribe-common
 * src/Tribe/JSON_LD/Abstract.php, TEC src/Tribe/JSON_LD/{Event,Venue,Organizer}.php and the event-status
 * filter that adds `eventAttendanceMode`/`eventStatus` right after `url`. Key order is the wire order.
 *
 * Visibility (Abstract::get_data): anonymous callers get JSON-LD only for published posts without a password;
 * logged-in users for posts they can read and whose password is not required. Deciding that is the caller's
 * job; a linked venue/organizer that is not visible is passed as `'hidden'` and comes out as `false`
 * (`reset( [] )` in PHP; derived from the code, not captured).
 */

type JsonLdSettings = Pick<
  SiteSettings,
  'timezone_string' | 'gmt_offset' | 'currency_symbol' | 'currency_code' | 'currency_position' | 'date_format' | 'permalink_structure'
>;

interface PostalAddress {
  '@type': 'PostalAddress';
  streetAddress?: string;
  addressLocality?: string;
  addressRegion?: string;
  postalCode?: string;
  addressCountry?: string;
}

export interface PlaceJsonLd {
  '@context'?: 'http://schema.org';
  '@type': 'Place';
  name: string;
  description: string;
  image?: string;
  url: string;
  address: PostalAddress;
  telephone: string;
  sameAs: string;
}

export interface PersonJsonLd {
  '@context'?: 'http://schema.org';
  '@type': 'Person';
  name: string;
  description: string;
  image?: string;
  url: string;
  telephone: string;
  email: string;
  sameAs: string;
}

interface OfferJsonLd {
  '@type': 'Offer';
  price: string;
  priceCurrency: string;
  url: string;
  category: 'primary';
  availability: 'inStock';
  validFrom: string;
}

export interface EventJsonLd {
  '@context': 'http://schema.org';
  '@type': 'Event';
  name: string;
  description: string;
  image?: string;
  url: string;
  eventAttendanceMode: string;
  eventStatus: string;
  startDate: string;
  endDate: string;
  location?: PlaceJsonLd | false;
  organizer?: PersonJsonLd | false;
  offers?: OfferJsonLd;
  performer: 'Organization';
}

type PostTitleSource = Pick<EventRecord, 'title' | 'status' | 'password'>;

/** `get_the_title()`: "Protected: " / "Private: " prefixes, then the `the_title` filters. */
export function jsonLdName(post: PostTitleSource): string {
  let title = post.title;
  if (post.password !== '') title = `Protected: ${title}`;
  else if (post.status === 'private') title = `Private: ${title}`;
  return escJs(renderTitle(title));
}

/** The common part (Abstract::get_data): `name`, `description` (TEC excerpt, `esc_js`ed, remembered: see memoized.ts), `image`. */
function description(post: Pick<EventRecord, 'content' | 'excerpt'>): string {
  return jsonLdDescriptionOf(post.excerpt, post.content);
}

/** PHP `urlencode`. */
function phpUrlencode(text: string): string {
  return encodeURIComponent(text)
    .replace(/[!'()*~]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, '+');
}

function trailingSlash(url: string): string {
  return `${url.replace(/[/\\]+$/, '')}/`;
}

/**
 * The event `url` in JSON-LD: `esc_url_raw( tribe_get_event_link() )`. With pretty permalinks the link is
 * slashed; a permalink that still carries a query string (drafts: `?post_type=…&p=16`) gets the slash inside the
 * last value, re-encoded, and another one after it: `?post_type=cal_events&p=16%2F/` (capture 053; the exact
 * upstream mechanism is inferred). Plain-permalink sites get the permalink unchanged (guess).
 */
export function eventJsonLdUrl(permalink: string, prettyPermalinks: boolean): string {
  if (!prettyPermalinks) return permalink;
  const slashed = trailingSlash(permalink);
  const q = slashed.indexOf('?');
  if (q === -1) return slashed;
  const query = slashed
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq === -1) return pair;
      // PHP's urldecode works on bytes and never fails; a value whose escapes are not UTF-8 (`%ff` alone) is
      // kept as written, which keeps its bytes.
      let value: string;
      try {
        value = decodeURIComponent(pair.slice(eq + 1).replace(/\+/g, ' '));
      } catch {
        return pair;
      }
      return `${pair.slice(0, eq)}=${phpUrlencode(value)}`;
    })
    .join('&');
  return trailingSlash(`${slashed.slice(0, q)}?${query}`);
}

/** PHP `date('c')`. */
function isoC(dt: DateTime): string {
  return dt.toFormat("yyyy-MM-dd'T'HH:mm:ssZZ");
}

/**
 * `startDate`/`endDate`: the event-local wall clock converted to UTC with TEC's rules (`to_utc`, which ignores the
 * format for `UTC±n` zones) and back into the event zone as ISO 8601 with offset. Zones TEC cannot rebuild
 * (`UTC+05:30`, unknown names) leave the UTC value as is, reproducing upstream.
 */
export function jsonLdDate(localWallClock: string, eventTimezone: string, settings: Pick<SiteSettings, 'timezone_string' | 'gmt_offset'>): string {
  const tz = eventTimezone !== '' ? eventTimezone : siteTimezoneName(settings);
  const local = readWpDate(localWallClock, zoneOf(isUtcOffset(tz) || isValidTimezone(tz) ? tz : 'UTC'));
  if (!local.isValid) return localWallClock;
  const utc = local.toUTC();
  if (isUtcOffset(tz)) {
    const zone = zoneFromUtcOffset(tz);
    return zone ? isoC(utc.setZone(zone)) : utc.toFormat(WP_FORMAT);
  }
  if (!isValidTimezone(tz)) return isoC(utc);
  return isoC(utc.setZone(zoneOf(tz)));
}

/**
 * `validFrom`: `date( DATE_ATOM, strtotime( get_the_date( '', $post ) ) )`, i.e. midnight UTC of the post's local
 * date for the usual date formats. Guess for exotic formats: `d/m/Y`-style formats are read month-first by
 * strtotime (PHP), which is reproduced; formats with a time are not.
 */
export function jsonLdValidFrom(postDate: string, dateFormat: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(postDate);
  if (!m) return '1970-01-01T00:00:00+00:00';
  let [, y, mo, d] = m as unknown as [string, string, string, string];
  if (/^[dj]\/[mn]\/[Yy]$/.test(dateFormat)) {
    // "21/11/2026" is parsed as month 21 (invalid → false → the epoch), "05/11/2026" as May 11.
    if (Number(d) > 12) return '1970-01-01T00:00:00+00:00';
    [mo, d] = [d.padStart(2, '0'), mo];
  }
  return `${y}-${mo}-${d}T00:00:00+00:00`;
}

export interface VenueJsonLdInput {
  venue: VenueRecord;
  /** Featured image URL (`wp_get_attachment_url`), when the venue has one. */
  imageUrl?: string | null;
  /** Add `@context` (TEC never does for venues; kept for completeness). */
  context?: boolean;
}

/** `tribe_get_region`: the combined state/province if set, else the state for the United States, else the province. */
function venueRegion(venue: VenueRecord): string {
  if (venue.stateProvince !== '' && venue.stateProvince !== '0') return venue.stateProvince;
  return escHtml(venue.country) === 'United States' ? escHtml(venue.state) : escHtml(venue.province);
}

/** PHP truthiness of a string (array_filter). */
function filled(value: string): boolean {
  return value !== '' && value !== '0';
}

/** The venue `Place` (capture 058). `url` is empty without Events Calendar Pro; `sameAs` is the website. */
export function venueJsonLd(input: VenueJsonLdInput): PlaceJsonLd {
  const { venue } = input;
  const parts: Array<[keyof PostalAddress, string]> = [
    ['streetAddress', escHtml(venue.address)],
    ['addressLocality', escHtml(venue.city)],
    ['addressRegion', venueRegion(venue)],
    ['postalCode', escHtml(venue.zip)],
    ['addressCountry', escHtml(venue.country)],
  ];
  const address: PostalAddress = { '@type': 'PostalAddress' };
  for (const [key, value] of parts) if (filled(value)) (address as unknown as Record<string, string>)[key] = value;

  return {
    ...(input.context ? { '@context': 'http://schema.org' as const } : {}),
    '@type': 'Place',
    name: jsonLdName(venue),
    description: description(venue),
    ...(input.imageUrl ? { image: input.imageUrl } : {}),
    url: '',
    address,
    telephone: escHtml(venue.phone),
    sameAs: venue.website,
  };
}

export interface OrganizerJsonLdInput {
  organizer: OrganizerRecord;
  imageUrl?: string | null;
  context?: boolean;
  /** Source for antispambot's coin flips (defaults to Math.random). */
  random?: RandomSource;
}

/** The organizer `Person` (capture 062): `url` and `sameAs` are the website, the e-mail is antispambot-encoded. */
export function organizerJsonLd(input: OrganizerJsonLdInput): PersonJsonLd {
  const { organizer } = input;
  const website = escUrl(escHtml(organizer.website));
  return {
    ...(input.context ? { '@context': 'http://schema.org' as const } : {}),
    '@type': 'Person',
    name: jsonLdName(organizer),
    description: description(organizer),
    ...(input.imageUrl ? { image: input.imageUrl } : {}),
    url: website,
    telephone: escHtml(organizer.phone),
    email: antispambot(escHtml(organizer.email), input.random ? { random: input.random } : {}),
    sameAs: website,
  };
}

type EventStatus = 'scheduled' | 'canceled' | 'postponed';

const EVENT_STATUS_SCHEMA: Record<EventStatus, string> = {
  scheduled: 'https://schema.org/EventScheduled',
  canceled: 'https://schema.org/EventCancelled',
  postponed: 'https://schema.org/EventPostponed',
};

export interface EventJsonLdInput {
  event: EventRecord;
  /** The event's permalink as on the wire (`url`). */
  permalink: string;
  settings: JsonLdSettings;
  imageUrl?: string | null;
  /** The event's (first) venue; `'hidden'` when linked but not visible to the caller; absent/null for none. */
  venue?: VenueJsonLdInput | 'hidden' | null;
  /**
   * The event's FIRST organizer (`tribe_get_organizer_id` returns the first; capture 048 has two organizers and
   * shows only the first); `'hidden'` / null as for the venue.
   */
  organizer?: OrganizerJsonLdInput | 'hidden' | null;
  /** Event Status (`_tribe_events_status`): scheduled by default. */
  status?: EventStatus;
}

/** The event `Event` object (captures 048–053). */
export function eventJsonLd(input: EventJsonLdInput): EventJsonLd {
  const { event, settings } = input;
  const url = escUrl(eventJsonLdUrl(input.permalink, settings.permalink_structure !== ''), 'db');
  const data: Omit<EventJsonLd, 'performer'> & Partial<Pick<EventJsonLd, 'performer'>> = {
    '@context': 'http://schema.org',
    '@type': 'Event',
    name: jsonLdName(event),
    description: description(event),
    ...(input.imageUrl ? { image: input.imageUrl } : {}),
    url,
    eventAttendanceMode: 'https://schema.org/OfflineEventAttendanceMode',
    eventStatus: EVENT_STATUS_SCHEMA[input.status ?? 'scheduled'],
    startDate: jsonLdDate(event.startDate, event.timezone, settings),
    endDate: jsonLdDate(event.endDate, event.timezone, settings),
  };
  if (input.venue) data.location = input.venue === 'hidden' ? false : venueJsonLd({ ...input.venue, context: false });
  if (input.organizer) data.organizer = input.organizer === 'hidden' ? false : organizerJsonLd({ ...input.organizer, context: false });
  const price = jsonLdPrice(costRows(event.cost), event, settings);
  if (price !== '') {
    data.offers = {
      '@type': 'Offer',
      price,
      // A currency code, never the symbol: the event's own code (`_EventCurrencyCode`) if it has one, else the
      // site's default currency code (TEC's `defaultCurrencyCode`, "USD" unless set).
      priceCurrency: event.currencyCode || settings.currency_code || 'USD',
      url,
      category: 'primary',
      availability: 'inStock',
      validFrom: jsonLdValidFrom(event.date, settings.date_format),
    };
  }
  // Set last by TEC "to avoid Google console errors".
  data.performer = 'Organization';
  return data as EventJsonLd;
}
