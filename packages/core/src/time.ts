import { DateTime, IANAZone, Settings, type Zone } from 'luxon';
import { memoize } from './util/memo.js';

/** WordPress stores and returns dates as `YYYY-MM-DD HH:MM:SS` in a given zone. */
export const WP_FORMAT = 'yyyy-MM-dd HH:mm:ss';

const formatSecond = memoize(
  (second: number, zone: Zone | string) => DateTime.fromMillis(second * 1000, { zone }).toFormat(WP_FORMAT),
  (second, zone) => `${second}|${typeof zone === 'string' ? zone : zone.name}`,
  256,
);

/** The WordPress date of an instant (whole seconds, as the format shows no less). */
export function formatWpDate(ms: number, zone: Zone | string): string {
  return formatSecond(Math.floor(ms / 1000), zone);
}

const WP_DATE = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;

/**
 * `DateTime.fromFormat(text, WP_FORMAT, { zone })`, without luxon working its pattern out of the format again on
 * every call (a fifth of an event's JSON-LD dates): the digits its pattern takes, then the `fromObject` that is its
 * own last step, range checks included. Text of another shape goes to luxon, for the same invalid DateTime.
 */
export function readWpDate(text: string, zone: Zone | string): DateTime {
  const m = WP_DATE.exec(text);
  if (!m) return DateTime.fromFormat(text, WP_FORMAT, { zone });
  return DateTime.fromObject({ year: Number(m[1]), month: Number(m[2]), day: Number(m[3]), hour: Number(m[4]), minute: Number(m[5]), second: Number(m[6]) }, { zone });
}

/** Reads a WordPress date string as wall clock time in `zone`; null when it is not one. */
export function parseWpDate(text: string, zone: Zone | string): DateTime | null {
  const dt = readWpDate(text, zone);
  return dt.isValid ? dt : null;
}

/** The UTC wall clock of a wall clock time in `zone`. */
export const wallClockToUtc = memoize(
  (text: string, zone: Zone | string): string => {
    const dt = parseWpDate(text, zone);
    return dt ? dt.toUTC().toFormat(WP_FORMAT) : text;
  },
  (text, zone) => `${typeof zone === 'string' ? zone : zone.name}|${text}`,
  2000,
  // A zone name and a WordPress date: no longer key is kept (the text may come from a request).
  128,
);

/** `{year, month, day, hour, minutes, seconds}` as zero-padded strings (TEC's date details). */
export function dateDetails(text: string): Record<'year' | 'month' | 'day' | 'hour' | 'minutes' | 'seconds', string> {
  const m = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/.exec(text);
  const [, year = '0000', month = '00', day = '00', hour = '00', minutes = '00', seconds = '00'] = m ?? [];
  return { year, month, day, hour, minutes, seconds };
}

/**
 * Luxon keeps every zone it is given by name, with the Intl formatters it makes for it (some 14 KB each,
 * outside the JS heap), for good. Zone names are matched without regard to case, so one zone has as many valid
 * spellings as its letters allow (`america/NEW_york`), and authors choose an event's zone: each spelling would stay.
 * Past MAX_LUXON_ZONE_NAMES names, luxon's caches are emptied and refill with the names in use.
 */
const MAX_LUXON_ZONE_NAMES = 1000;
const namesGivenToLuxon = new Set<string>();

export function ianaZone(tz: string): IANAZone {
  if (!namesGivenToLuxon.has(tz)) {
    if (namesGivenToLuxon.size >= MAX_LUXON_ZONE_NAMES) {
      Settings.resetCaches();
      namesGivenToLuxon.clear();
    }
    namesGivenToLuxon.add(tz);
  }
  return IANAZone.create(tz);
}
