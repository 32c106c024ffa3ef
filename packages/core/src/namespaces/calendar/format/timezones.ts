import { DateTime, FixedOffsetZone, IANAZone, type Zone } from 'luxon';
import type { SiteSettings } from '../../../settings.js';
import { ianaZone, readWpDate } from '../../../time.js';
import { leadingNumber } from '../../../http/php.js';
import { memoize } from '../../../util/memo.js';

/*
 * TEC time zone names (tribe-common src/Tribe/Timezones.php). An event's `_EventTimezone` is either a PHP
 * time zone id (`America/New_York`, `UTC`) or a manual offset written `UTC+2`, `UTC-5.5`, `UTC+0` (which is what
 * WordPress sites configured with a plain UTC offset get).
 */

/** `Tribe__Timezones::is_utc_offset`: anything starting with "UTC" and longer than that. */
export function isUtcOffset(tz: string): boolean {
  const trimmed = tz.trim();
  return trimmed.startsWith('UTC') && trimmed.length > 3;
}

/*
 * Abbreviations PHP's DateTimeZone accepts that Intl does not know as zone ids. Guess: a common subset of PHP's
 * timezone_abbreviations_list(); PHP accepts many more (historical ones included).
 */
const PHP_ABBREVIATIONS: Readonly<Record<string, number>> = {
  utc: 0, gmt: 0, z: 0, wet: 0, west: 60, bst: 60, ist: 60, cet: 60, cest: 120, met: 60, mest: 120, eet: 120,
  eest: 180, msk: 180, est: -300, edt: -240, cst: -360, cdt: -300, mst: -420, mdt: -360, pst: -480, pdt: -420,
  akst: -540, akdt: -480, hst: -600, ast: -240, adt: -180, nst: -210, ndt: -150, jst: 540, kst: 540, hkt: 480,
  awst: 480, acst: 570, acdt: 630, aest: 600, aedt: 660, nzst: 720, nzdt: 780, sast: 120, wat: 60, cat: 120, eat: 180,
};

/** A PHP-style numeric zone (`+02:00`, `-0530`, `+2`), in minutes; null if not one. */
function numericOffsetMinutes(tz: string): number | null {
  const m = /^([+-])(\d{1,2})(?::?(\d{2}))?$/.exec(tz.trim());
  if (!m) return null;
  const minutes = Number(m[2]) * 60 + Number(m[3] ?? 0);
  return m[1] === '-' ? -minutes : minutes;
}

/**
 * Zone names are few and validating one builds Intl formatters, so answers are remembered: the last few thousand
 * names asked about, none longer than a zone name gets. Names come from requests (`timezone`, checked before the
 * caller's rights are), and `UTC` followed by anything is valid: kept whatever their length or number, they
 * would fill memory; kept until the map is full and no longer, junk would leave no room for real zones.
 */
const validity = memoize(computeValidity, (tz) => tz, 2000, 64);

/** `Tribe__Timezones::is_valid_timezone`: a UTC offset string or anything PHP's `new DateTimeZone()` accepts. */
export function isValidTimezone(tz: unknown): boolean {
  return typeof tz === 'string' && validity(tz);
}

function computeValidity(tz: string): boolean {
  if (isUtcOffset(tz)) return true;
  if (tz === '') return false;
  if (numericOffsetMinutes(tz) !== null) return true;
  if (tz.toLowerCase() in PHP_ABBREVIATIONS) return true;
  return IANAZone.isValidZone(tz);
}

/** `Tribe__Timezones::wp_timezone_string`: the site's zone id, else `UTC+0` / `UTC+5.5` / `UTC-3` from `gmt_offset`. */
export function siteTimezoneName(settings: Pick<SiteSettings, 'timezone_string' | 'gmt_offset'>): string {
  if (settings.timezone_string) return settings.timezone_string;
  const offset = Number(settings.gmt_offset) || 0;
  if (offset === 0) return 'UTC+0';
  return offset < 0 ? `UTC${offset}` : `UTC+${offset}`;
}

/**
 * The offset TEC applies for a `UTC…` zone when converting wall clock to and from UTC
 * (`Tribe__Timezones::apply_offset`): `:15/:30/:45` read as fractions, hours × 60 truncated to minutes, and no
 * shift at all when the integer part is 0 (so `UTC+0.5` is treated as UTC: an upstream quirk, reproduced).
 */
export function utcOffsetMinutes(tz: string): number {
  let offset = tz.trim().toLowerCase();
  if (offset.startsWith('utc')) offset = offset.slice(3);
  if (Math.trunc(leadingNumber(offset)) === 0) return 0;
  offset = offset.replace(/:15$/, '.25').replace(/:30$/, '.5').replace(/:45$/, '.75');
  return Math.trunc(leadingNumber(offset) * 60);
}

/**
 * `Tribe__Timezones::timezone_from_utc_offset` (used for JSON-LD dates): only `UTC±h[.f]` (up to 4 characters
 * after the sign) is understood; the fraction is read as an integer after "0." (so `.5` and `.05` both mean 30
 * minutes: upstream quirk). Returns null when the string does not match.
 */
export function zoneFromUtcOffset(tz: string): Zone | null {
  const m = /^UTC([+-])([0-9.]{1,4})$/.exec(tz);
  if (!m) return null;
  const [hoursPart = '', fractionPart] = m[2]!.split('.');
  const hours = Math.trunc(leadingNumber(hoursPart));
  const fraction = fractionPart === undefined ? 0 : Number(`0.${Math.trunc(leadingNumber(fractionPart))}`);
  const minutes = Math.trunc(fraction * 60);
  const total = hours * 60 + minutes;
  return FixedOffsetZone.instance(m[1] === '-' ? -total : total);
}

/**
 * A luxon zone for a TEC zone name: `UTC…` offsets as TEC converts them (see `utcOffsetMinutes`), PHP numeric
 * offsets and abbreviations as fixed offsets, ids via IANA; `""` or an unknown name falls back to UTC
 * (`Tribe__Timezones::get_timezone` with fallback).
 */
const zones = memoize(computeZone, (tz) => tz, 2000, 64);

export function zoneOf(tz: string | Zone): Zone {
  return typeof tz === 'string' ? zones(tz) : tz;
}

function computeZone(tz: string): Zone {
  if (isUtcOffset(tz)) return FixedOffsetZone.instance(utcOffsetMinutes(tz));
  const numeric = numericOffsetMinutes(tz);
  if (numeric !== null) return FixedOffsetZone.instance(numeric);
  const abbr = PHP_ABBREVIATIONS[tz.toLowerCase()];
  if (abbr !== undefined && !IANAZone.isValidZone(tz)) return FixedOffsetZone.instance(abbr);
  const zone = ianaZone(tz);
  return zone.isValid ? zone : FixedOffsetZone.utcInstance;
}


/**
 * The Intl formatter luxon's `offsetNameShort` uses (the same options, so the same names), made once per locale and
 * zone: luxon makes a new one on every call, which was most of an abbreviation's cost (380–1,750 µs, up to nine
 * locales tried). Keys are a locale of ABBR_LOCALES and a zone name luxon found valid.
 */
const shortNameFormats = memoize(
  (locale: string, zone: string) =>
    new Intl.DateTimeFormat(locale, { timeZoneName: 'short', hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', timeZone: zone }),
  (locale, zone) => `${locale}\u0000${zone}`,
  // Formatters hold some 14 KB each outside the heap: a site uses a few zones, and names are bounded as luxon's are (time.ts).
  256,
  128,
);

/** The short name of `zone` at `ms` in `locale`, as luxon's `offsetNameShort` gives it; null when Intl has none. */
function shortZoneName(locale: string, zone: string, ms: number): string | null {
  for (const part of shortNameFormats(locale, zone).formatToParts(ms)) if (part.type === 'timeZoneName') return part.value;
  return null;
}

const ABBR_LOCALES = ['en-US', 'en-GB', 'en-AU', 'en-IN', 'en-NZ', 'en-ZA', 'ja-JP', 'en-IE', 'en-CA'];

function numericAbbr(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  const hh = String(Math.floor(abs / 60)).padStart(2, '0');
  const mm = abs % 60;
  return mm === 0 ? `${sign}${hh}` : `${sign}${hh}${String(mm).padStart(2, '0')}`;
}

/**
 * PHP's `DateTime::format('T')` for a zone at a moment: the tz database abbreviation (`EST`, `CET`, `AEDT`).
 * Intl only knows some of them per locale, so a few English locales (and ja-JP for JST) are tried; zones whose
 * abbreviation is numeric in the tz database get `+03` / `-0330` like PHP. Guess: where Intl has no name for an
 * abbreviation the tz database does have (e.g. `CST` for Asia/Shanghai), the numeric form is returned instead.
 */
function phpZoneAbbr(zone: Zone, at: DateTime): string {
  const local = at.setZone(zone);
  if (zone instanceof FixedOffsetZone) {
    return zone.offset(0) === 0 ? 'UTC' : local.toFormat('ZZ');
  }
  const ms = local.toMillis();
  for (const locale of ABBR_LOCALES) {
    const name = shortZoneName(locale, zone.name, ms);
    if (name && !/^(GMT|UTC)[+-−]/.test(name)) return name === 'GMT' && zone.name === 'UTC' ? 'UTC' : name;
  }
  return numericAbbr(local.offset);
}

/**
 * The `timezone_abbr` TEC stores for an event (`Tribe__Events__API::prepare_event_date_meta`): the name itself for
 * `UTC…` offsets, the zone's abbreviation at the event's start (wall clock in that zone) for valid zones, else the
 * site zone's abbreviation (or its name when it has none).
 */
export function timezoneAbbr(
  tz: string,
  at: DateTime | number | string,
  settings: Pick<SiteSettings, 'timezone_string' | 'gmt_offset'> = { timezone_string: '', gmt_offset: 0 },
): string {
  if (typeof at !== 'string' || isUtcOffset(tz)) return zoneAbbrAt(tz, at, settings);
  // A pure function of its arguments that costs 50–140 µs for a named zone (the wall clock read in the zone, Intl's
  // names in up to nine locales): remembered per zone and wall clock time, since every list asks it for every event.
  const key = `${tz}\u0000${at}\u0000${settings.timezone_string}\u0000${settings.gmt_offset}`;
  if (key.length > 200) return zoneAbbrAt(tz, at, settings);
  let abbr = knownAbbrs.get(key);
  if (abbr === undefined) {
    abbr = zoneAbbrAt(tz, at, settings);
    if (knownAbbrs.size >= KNOWN_ABBRS_LIMIT) knownAbbrs.delete(knownAbbrs.keys().next().value!);
    knownAbbrs.set(key, abbr);
  }
  return abbr;
}

/** Abbreviations worked out already, oldest first; bounded (keys are short: a zone name and a date). */
const knownAbbrs = new Map<string, string>();
const KNOWN_ABBRS_LIMIT = 50_000;

function zoneAbbrAt(tz: string, at: DateTime | number | string, settings: Pick<SiteSettings, 'timezone_string' | 'gmt_offset'>): string {
  if (isUtcOffset(tz)) return tz;
  const effective = isValidTimezone(tz) ? tz : siteTimezoneName(settings);
  if (isUtcOffset(effective)) return effective;
  const zone = zoneOf(effective);
  const moment =
    typeof at === 'number'
      ? DateTime.fromMillis(at, { zone })
      : typeof at === 'string'
        ? readWpDate(at, zone)
        : at;
  if (!moment.isValid) return isValidTimezone(tz) ? '' : effective;
  const abbr = phpZoneAbbr(zone, moment);
  return abbr || (isValidTimezone(tz) ? '' : effective);
}
