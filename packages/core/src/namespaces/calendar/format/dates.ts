import * as chrono from 'chrono-node';
import { DateTime, FixedOffsetZone, type Zone } from 'luxon';
import type { SiteSettings } from '../../../settings.js';
import { WP_FORMAT, wallClockToUtc } from '../../../time.js';
import { isUtcOffset, isValidTimezone, siteTimezoneName, timezoneAbbr, zoneOf } from './timezones.js';

/*
 * Date inputs as TEC's REST API reads them: `Tribe__Date_Utils::reformat()` / `build_date_object()`, i.e. a unix
 * timestamp (always UTC) or anything PHP's `strtotime()` / `new DateTime()` understands. The common forms are
 * parsed here with PHP's rules (timelib): absolute dates default to midnight, `today`/`tomorrow`/`yesterday`/
 * `midnight`/weekday names reset the time, a later time overrides it, `+N unit`/`next unit`/`N unit ago` shift
 * the wall clock with PHP's month overflow, `first|last day of …` keep the time. Other phrasings fall back to
 * chrono-node, accepted only when it understands the whole input (more lenient than PHP: guess).
 */

const MONTHS: Record<string, number> = {
  jan: 1, january: 1, feb: 2, february: 2, mar: 3, march: 3, apr: 4, april: 4, may: 5, jun: 6, june: 6,
  jul: 7, july: 7, aug: 8, august: 8, sep: 9, sept: 9, september: 9, oct: 10, october: 10, nov: 11,
  november: 11, dec: 12, december: 12,
};
const MONTH_NAME = Object.keys(MONTHS).sort((a, b) => b.length - a.length).join('|');

const WEEKDAYS: Record<string, number> = {
  sun: 0, sunday: 0, mon: 1, monday: 1, tue: 2, tues: 2, tuesday: 2, wed: 3, wednes: 3, wednesday: 3,
  thu: 4, thur: 4, thurs: 4, thursday: 4, fri: 5, friday: 5, sat: 6, saturday: 6,
};
const WEEKDAY_NAME = Object.keys(WEEKDAYS).sort((a, b) => b.length - a.length).join('|');

const UNIT = '(sec|secs|second|seconds|min|mins|minute|minutes|hour|hours|day|days|week|weeks|fortnight|fortnights|forthnight|month|months|year|years)';

interface Relative {
  y: number;
  m: number;
  d: number;
  h: number;
  i: number;
  s: number;
}

interface Parsed {
  date: { y: number; m: number; d: number } | null;
  time: { h: number; i: number; s: number } | null;
  rel: Relative;
  weekday: { day: number; behavior: number } | null;
  firstLast: 'first' | 'last' | null;
  offset: number | null;
}

function addUnit(rel: Relative, unit: string, amount: number): void {
  const u = unit.replace(/s$/, '');
  if (u === 'sec' || u === 'second') rel.s += amount;
  else if (u === 'min' || u === 'minute') rel.i += amount;
  else if (u === 'hour') rel.h += amount;
  else if (u === 'day') rel.d += amount;
  else if (u === 'week') rel.d += 7 * amount;
  else if (u === 'fortnight' || u === 'forthnight') rel.d += 14 * amount;
  else if (u === 'month') rel.m += amount;
  else if (u === 'year') rel.y += amount;
}

function hour12(hour: number, meridiem: string | undefined): number | null {
  if (!meridiem) return hour <= 24 ? hour : null;
  if (hour < 1 || hour > 12) return null;
  const pm = meridiem.startsWith('p');
  return (hour % 12) + (pm ? 12 : 0);
}

function fullYear(text: string): number {
  const y = Number(text);
  if (text.length > 2) return y;
  return y < 70 ? 2000 + y : 1900 + y;
}

/** The PHP-compatible grammar; null when some part of the input is not understood. */
function parsePhpLike(input: string): Parsed | null {
  const text = input.toLowerCase();
  const p: Parsed = { date: null, time: null, rel: { y: 0, m: 0, d: 0, h: 0, i: 0, s: 0 }, weekday: null, firstLast: null, offset: null };
  let pos = 0;
  let afterTime = false;

  const take = (re: RegExp): RegExpExecArray | null => {
    const m = re.exec(text.slice(pos));
    if (m) pos += m[0].length;
    return m;
  };

  while (pos < text.length) {
    if (take(/^[\s,]+/)) continue;
    let m: RegExpExecArray | null;
    const wasAfterTime = afterTime;
    afterTime = false;

    if (wasAfterTime && (m = take(/^(z|utc|gmt)(?![a-z])/))) {
      p.offset = 0;
    } else if (wasAfterTime && (m = take(new RegExp(`^([+-])(\\d{2}):?(\\d{2})?(?!\\d)(?!\\s*${UNIT})`)))) {
      const minutes = Number(m[2]) * 60 + Number(m[3] ?? 0);
      p.offset = m[1] === '-' ? -minutes : minutes;
    } else if ((m = take(/^now\b/))) {
      // nothing to do
    } else if ((m = take(/^(today|midnight)\b/))) {
      p.time = { h: 0, i: 0, s: 0 };
    } else if ((m = take(/^noon\b/))) {
      p.time = { h: 12, i: 0, s: 0 };
    } else if ((m = take(/^tomorrow\b/))) {
      p.rel.d = 1;
      p.time = { h: 0, i: 0, s: 0 };
    } else if ((m = take(/^yesterday\b/))) {
      p.rel.d = -1;
      p.time = { h: 0, i: 0, s: 0 };
    } else if ((m = take(/^(first|last) day of\b/))) {
      p.firstLast = m[1] as 'first' | 'last';
    } else if ((m = take(new RegExp(`^(next|last|previous|this)\\s+(${WEEKDAY_NAME})\\b`)))) {
      const amount = m[1] === 'next' ? 1 : m[1] === 'this' ? 0 : -1;
      p.rel.d += (amount > 0 ? amount - 1 : amount) * 7;
      p.weekday = { day: WEEKDAYS[m[2]!]!, behavior: m[1] === 'this' ? 1 : 0 };
      p.time = { h: 0, i: 0, s: 0 };
    } else if ((m = take(new RegExp(`^(next|last|previous|this)\\s+${UNIT}\\b`)))) {
      addUnit(p.rel, m[2]!, m[1] === 'next' ? 1 : m[1] === 'this' ? 0 : -1);
    } else if ((m = take(new RegExp(`^([+-]?)\\s*(\\d+)\\s*${UNIT}\\b`)))) {
      addUnit(p.rel, m[3]!, (m[1] === '-' ? -1 : 1) * Number(m[2]));
    } else if ((m = take(/^ago\b/))) {
      for (const k of Object.keys(p.rel) as Array<keyof Relative>) p.rel[k] = -p.rel[k];
    } else if ((m = take(new RegExp(`^(${WEEKDAY_NAME})\\b\\.?`)))) {
      p.weekday = { day: WEEKDAYS[m[1]!]!, behavior: 1 };
      p.time = { h: 0, i: 0, s: 0 };
    } else if ((m = take(/^(\d{4})-(\d{1,2})-(\d{1,2})(?!\d)/)) || (m = take(/^(\d{4})\/(\d{1,2})\/(\d{1,2})(?!\d)/))) {
      p.date = { y: Number(m[1]), m: Number(m[2]), d: Number(m[3]) };
      p.time ??= { h: 0, i: 0, s: 0 };
    } else if ((m = take(/^(\d{1,2})\/(\d{1,2})\/(\d{4}|\d{2})(?!\d)/))) {
      p.date = { y: fullYear(m[3]!), m: Number(m[1]), d: Number(m[2]) };
      p.time ??= { h: 0, i: 0, s: 0 };
    } else if ((m = take(/^(\d{1,2})[-.](\d{1,2})[-.](\d{4})(?!\d)/))) {
      p.date = { y: Number(m[3]), m: Number(m[2]), d: Number(m[1]) };
      p.time ??= { h: 0, i: 0, s: 0 };
    } else if ((m = take(new RegExp(`^(${MONTH_NAME})\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?(?![\\d:])(?:,?\\s+(\\d{4}))?\\b`)))) {
      p.date = { y: m[3] ? Number(m[3]) : NaN, m: MONTHS[m[1]!]!, d: Number(m[2]) };
      p.time ??= { h: 0, i: 0, s: 0 };
    } else if ((m = take(new RegExp(`^(\\d{1,2})(?:st|nd|rd|th)?\\s+(${MONTH_NAME})\\b\\.?(?:,?\\s+(\\d{4})\\b)?`)))) {
      p.date = { y: m[3] ? Number(m[3]) : NaN, m: MONTHS[m[2]!]!, d: Number(m[1]) };
      p.time ??= { h: 0, i: 0, s: 0 };
    } else if ((m = take(new RegExp(`^(${MONTH_NAME})\\.?\\s+(\\d{4})\\b`)))) {
      p.date = { y: Number(m[2]), m: MONTHS[m[1]!]!, d: 1 };
      p.time ??= { h: 0, i: 0, s: 0 };
    } else if ((m = take(/^t?(\d{1,2}):(\d{2})(?::(\d{2})(?:[.,]\d+)?)?(?:\s*([ap])\.?m\.?)?(?![\d:])/))) {
      const h = hour12(Number(m[1]), m[4]);
      if (h === null || Number(m[2]) > 59 || Number(m[3] ?? 0) > 60) return null;
      p.time = { h, i: Number(m[2]), s: Number(m[3] ?? 0) };
      afterTime = true;
    } else if ((m = take(/^(\d{1,2})\s*([ap])\.?m\.?(?![a-z])/))) {
      const h = hour12(Number(m[1]), m[2]);
      if (h === null) return null;
      p.time = { h, i: 0, s: 0 };
      afterTime = true;
    } else if (p.firstLast && (m = take(new RegExp(`^(${MONTH_NAME})\\b\\.?`)))) {
      // "first day of january [2028]": the month (and optional year) the day is taken in.
      const year = take(/^\s+(\d{4})\b/);
      p.date = { y: year ? Number(year[1]) : NaN, m: MONTHS[m[1]!]!, d: 1 };
    } else {
      return null;
    }
  }
  return p;
}

/** The weekday adjustment of timelib (`do_adjust_for_weekday`), on a day number. */
function adjustForWeekday(y: number, m: number, d: number, weekday: { day: number; behavior: number }, relDays: number): number {
  const current = new Date(Date.UTC(y, m - 1, d)).getUTCDay();
  let difference = weekday.day - current;
  if ((relDays < 0 && difference < 0) || (relDays >= 0 && difference <= -weekday.behavior)) difference += 7;
  return d + difference;
}

function resolve(p: Parsed, zone: Zone, nowMs: number): DateTime | null {
  const effectiveZone = p.offset !== null ? FixedOffsetZone.instance(p.offset) : zone;
  const now = DateTime.fromMillis(nowMs, { zone: effectiveZone });
  let y = p.date ? (Number.isNaN(p.date.y) ? now.year : p.date.y) : now.year;
  let mo = p.date ? p.date.m : now.month;
  let d = p.date ? p.date.d : now.day;
  if (mo < 1 || mo > 12 || d < 1 || d > 31) return null;
  let h = p.time ? p.time.h : now.hour;
  let i = p.time ? p.time.i : now.minute;
  let s = p.time ? p.time.s : now.second;

  if (p.weekday) d = adjustForWeekday(y, mo, d, p.weekday, p.rel.d);
  y += p.rel.y;
  mo += p.rel.m;
  d += p.rel.d;
  h += p.rel.h;
  i += p.rel.i;
  s += p.rel.s;
  if (p.firstLast === 'first') d = 1;
  if (p.firstLast === 'last') {
    d = 0;
    mo += 1;
  }
  // Date.UTC normalises overflowing fields the way timelib does (Jan 31 + 1 month = Mar 3).
  const wall = new Date(Date.UTC(y, mo - 1, d, h, i, s));
  if (Number.isNaN(wall.getTime())) return null;
  const dt = DateTime.fromObject(
    {
      year: wall.getUTCFullYear(),
      month: wall.getUTCMonth() + 1,
      day: wall.getUTCDate(),
      hour: wall.getUTCHours(),
      minute: wall.getUTCMinutes(),
      second: wall.getUTCSeconds(),
    },
    { zone: effectiveZone },
  );
  return dt.isValid ? dt : null;
}

/** chrono-node for what the PHP grammar above does not cover; the whole input must be understood. */
function parseWithChrono(text: string, zone: Zone, nowMs: number): DateTime | null {
  const now = DateTime.fromMillis(nowMs, { zone });
  // chrono works on a reference whose UTC fields are the wall clock in `zone`.
  const reference = new Date(Date.UTC(now.year, now.month - 1, now.day, now.hour, now.minute, now.second));
  const results = chrono.parse(text, { instant: reference, timezone: 0 }, { forwardDate: false });
  if (results.length !== 1) return null;
  const [result] = results;
  if (!result || result.index !== 0 || result.text.length !== text.length || result.end) return null;
  const c = result.start;
  const timeKnown = c.isCertain('hour');
  const offset = c.isCertain('timezoneOffset') ? (c.get('timezoneOffset') ?? 0) : null;
  const dt = DateTime.fromObject(
    {
      year: c.get('year') ?? now.year,
      month: c.get('month') ?? now.month,
      day: c.get('day') ?? now.day,
      hour: timeKnown ? (c.get('hour') ?? 0) : 0,
      minute: timeKnown ? (c.get('minute') ?? 0) : 0,
      second: timeKnown ? (c.get('second') ?? 0) : 0,
    },
    { zone: offset !== null ? FixedOffsetZone.instance(offset) : zone },
  );
  return dt.isValid ? dt : null;
}

/** `Tribe__Date_Utils::is_timestamp` for a string: an integer (optionally signed, `.0` allowed). */
function timestampOf(text: string): number | null {
  const m = /^[ \t\n\r\v\f]*([+-]?\d+)(?:\.0*)?[ \t\n\r\v\f]*$/.exec(text);
  return m ? Number(m[1]) : null;
}

/**
 * Parses a date input the way TEC does. Numbers and integer strings are unix timestamps, returned in UTC (TEC
 * stores their UTC wall clock). Strings with an explicit offset (`Z`, `+02:00`, `UTC`) are returned in that
 * offset, other strings as wall clock time in `zone` (a luxon zone or a TEC zone name such as `UTC+2`), with
 * relative words taken from `nowMs` in that zone. Null when the input is not understood.
 *
 * The stored event-local wall clock is `result.toFormat('yyyy-MM-dd HH:mm:ss')` whatever zone the result is in
 * (TEC formats the parsed object without converting it).
 */
export function parseDateInput(input: unknown, zone: string | Zone, nowMs: number): DateTime | null {
  if (typeof input === 'number') {
    if (!Number.isInteger(input)) return null;
    return DateTime.fromSeconds(input, { zone: 'UTC' });
  }
  if (typeof input !== 'string') return null;
  const text = input.trim().replace(/\s+/g, ' ');
  if (text === '') return null;
  const timestamp = timestampOf(text);
  if (timestamp !== null) return DateTime.fromSeconds(timestamp, { zone: 'UTC' });
  const at = /^@([+-]?\d+)$/.exec(text);
  if (at) return DateTime.fromSeconds(Number(at[1]), { zone: 'UTC' });

  const luxonZone = zoneOf(zone);
  const parsed = parsePhpLike(text);
  if (parsed) return resolve(parsed, luxonZone, nowMs);
  return parseWithChrono(text, luxonZone, nowMs);
}

/** The `YYYY-MM-DD HH:MM:SS` wall clock TEC stores for a parsed date. */
export function wallClock(dt: DateTime): string {
  return dt.toFormat(WP_FORMAT);
}

function cutoffParts(cutoff: string): [number, number] {
  const [h = '0', m = '0'] = cutoff.split(':');
  return [Number(h) || 0, Number(m) || 0];
}

function dateOnly(text: string): DateTime | null {
  const dt = DateTime.fromISO(text.slice(0, 10), { zone: 'UTC' });
  return dt.isValid ? dt : null;
}

/**
 * `tribe_beginning_of_day`: the day of `date` at the multi-day cutoff (`00:00` by default) →
 * `YYYY-MM-DD 00:00:00`. Only the date part of `date` is read.
 */
export function startOfDay(date: string, cutoff = '00:00'): string {
  const day = dateOnly(date);
  if (!day) return date;
  const [h, m] = cutoffParts(cutoff);
  return day.plus({ hours: h, minutes: m }).toFormat(WP_FORMAT);
}

/** `tribe_end_of_day`: one second before the next day's cutoff → `YYYY-MM-DD 23:59:59` by default. */
export function endOfDay(date: string, cutoff = '00:00'): string {
  const day = dateOnly(date);
  if (!day) return date;
  const [h, m] = cutoffParts(cutoff);
  return day.plus({ days: 1, hours: h, minutes: m, seconds: -1 }).toFormat(WP_FORMAT);
}

/** The all-day rule: the start snaps to the beginning of its day, the end to the end of its day. */
export function allDayBounds(start: string, end: string, cutoff = '00:00'): { start: string; end: string } {
  return { start: startOfDay(start, cutoff), end: endOfDay(end, cutoff) };
}

export interface EventDateFields {
  startDate: string;
  endDate: string;
  startDateUtc: string;
  endDateUtc: string;
  timezone: string;
  timezoneAbbr: string;
}

/**
 * The date meta TEC stores for an event (`Tribe__Events__API::prepare_event_date_meta`) from its local start and
 * end wall clocks: all-day snapping, the site zone when no zone was given, UTC copies converted with TEC's rules
 * for `UTC±n` names, the zone abbreviation at the start, and an end before the start moved to the start.
 * Upstream quirk (reproduced): the UTC end is computed before that correction, so it keeps the original end.
 */
export function eventDateFields(input: {
  start: string;
  end: string;
  allDay: boolean;
  timezone: string;
  settings: Pick<SiteSettings, 'timezone_string' | 'gmt_offset'>;
  cutoff?: string;
}): EventDateFields {
  let start = input.start;
  let end = input.end;
  if (input.allDay) ({ start, end } = allDayBounds(start, end, input.cutoff));
  const timezone = input.timezone === '' ? siteTimezoneName(input.settings) : input.timezone;
  const abbr = timezoneAbbr(timezone, start, input.settings);
  // Tribe__Timezones::to_utc; a zone name TEC cannot use falls back to UTC.
  const convertIn = zoneOf(isUtcOffset(timezone) || isValidTimezone(timezone) ? timezone : 'UTC');
  const startDateUtc = wallClockToUtc(start, convertIn);
  const endDateUtc = wallClockToUtc(end, convertIn);
  if (start > end) end = start;
  return { startDate: start, endDate: end, startDateUtc, endDateUtc, timezone, timezoneAbbr: abbr };
}
