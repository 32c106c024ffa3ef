import { describe, expect, it } from 'vitest';
import {
  allDayBounds,
  endOfDay,
  eventDateFields,
  parseDateInput,
  startOfDay,
  wallClock,
} from '../../src/namespaces/calendar/format/dates.js';
import { DEFAULT_SETTINGS } from '../../src/settings.js';
import { captureJson, captureRequestBody } from './captures.js';

/** The capture site's clock: Saturday 21 November 2026, 16:41:38 UTC. */
const NOW = Date.UTC(2026, 10, 21, 16, 41, 38);

function parse(input: unknown, zone = 'UTC', now = NOW): string | null {
  const dt = parseDateInput(input, zone, now);
  return dt ? wallClock(dt) : null;
}

describe('parseDateInput: timestamps', () => {
  it('reads numbers and integer strings as unix timestamps in UTC, whatever the zone', () => {
    expect(parse(1700000000, 'America/New_York')).toBe('2023-11-14 22:13:20');
    expect(parse('1700000000', 'America/New_York')).toBe('2023-11-14 22:13:20');
    expect(parse('@1700000000')).toBe('2023-11-14 22:13:20');
    expect(parseDateInput(1700000000, 'America/New_York', NOW)!.zoneName).toBe('UTC');
  });
  it('rejects fractional numbers and non-strings', () => {
    expect(parse(1.5)).toBeNull();
    expect(parse({})).toBeNull();
    expect(parse(null)).toBeNull();
  });
});

describe('parseDateInput: absolute dates', () => {
  it.each([
    ['2027-01-15 19:00:00', '2027-01-15 19:00:00'],
    ['2027-01-15 19:00', '2027-01-15 19:00:00'],
    ['2027-01-15', '2027-01-15 00:00:00'],
    ['2027-1-5 7pm', '2027-01-05 19:00:00'],
    ['2027/01/15 9:30am', '2027-01-15 09:30:00'],
    ['01/15/2027', '2027-01-15 00:00:00'],
    ['15-01-2027', '2027-01-15 00:00:00'],
    ['15.01.2027 18:00', '2027-01-15 18:00:00'],
    ['January 5 2027', '2027-01-05 00:00:00'],
    ['Jan 5th, 2027 8:15 pm', '2027-01-05 20:15:00'],
    ['5 January 2027 7pm', '2027-01-05 19:00:00'],
    ['March 2027', '2027-03-01 00:00:00'],
    ['2027-02-30', '2027-03-02 00:00:00'],
    ['2027-01-15T19:00:00', '2027-01-15 19:00:00'],
  ])('%s → %s', (input, expected) => {
    expect(parse(input, 'America/New_York')).toBe(expected);
  });

  it('reads wall clock time in the given zone', () => {
    const dt = parseDateInput('2027-01-15 19:00:00', 'America/New_York', NOW)!;
    expect(dt.toUTC().toISO()).toBe('2027-01-16T00:00:00.000Z');
    expect(parseDateInput('2027-01-15 19:00:00', 'UTC+2', NOW)!.toUTC().toISO()).toBe('2027-01-15T17:00:00.000Z');
  });

  it('honours an explicit offset (and keeps its wall clock)', () => {
    const dt = parseDateInput('2027-01-15T19:00:00+02:00', 'America/New_York', NOW)!;
    expect(wallClock(dt)).toBe('2027-01-15 19:00:00');
    expect(dt.toUTC().toISO()).toBe('2027-01-15T17:00:00.000Z');
    expect(parseDateInput('2027-01-15T19:00:00Z', 'America/New_York', NOW)!.toUTC().toISO()).toBe('2027-01-15T19:00:00.000Z');
    expect(parseDateInput('2027-01-15 19:00:00 -0500', 'UTC', NOW)!.toUTC().toISO()).toBe('2027-01-16T00:00:00.000Z');
    expect(parseDateInput('2027-01-15T19:00:00.123+05:30', 'UTC', NOW)!.toUTC().toISO()).toBe('2027-01-15T13:30:00.000Z');
  });
});

describe('parseDateInput: relative English (PHP strtotime rules)', () => {
  it.each([
    ['now', '2026-11-21 16:41:38'],
    ['today', '2026-11-21 00:00:00'],
    ['midnight', '2026-11-21 00:00:00'],
    ['noon', '2026-11-21 12:00:00'],
    ['tomorrow', '2026-11-22 00:00:00'],
    ['yesterday', '2026-11-20 00:00:00'],
    ['tomorrow 9am', '2026-11-22 09:00:00'],
    ['9am tomorrow', '2026-11-22 00:00:00'],
    ['yesterday 23:59', '2026-11-20 23:59:00'],
    ['yesterday noon', '2026-11-20 12:00:00'],
    ['next wednesday 4pm', '2026-11-25 16:00:00'],
    ['wednesday', '2026-11-25 00:00:00'],
    ['saturday', '2026-11-21 00:00:00'],
    ['this saturday', '2026-11-21 00:00:00'],
    ['next saturday', '2026-11-28 00:00:00'],
    ['last saturday', '2026-11-14 00:00:00'],
    ['last friday', '2026-11-20 00:00:00'],
    ['+1 week', '2026-11-28 16:41:38'],
    ['+24 months', '2028-11-21 16:41:38'],
    ['-2 days', '2026-11-19 16:41:38'],
    ['3 days ago', '2026-11-18 16:41:38'],
    ['+1 week 2 days', '2026-11-30 16:41:38'],
    ['next month', '2026-12-21 16:41:38'],
    ['last year', '2025-11-21 16:41:38'],
    ['+90 minutes', '2026-11-21 18:11:38'],
    ['first day of next month', '2026-12-01 16:41:38'],
    ['last day of next month', '2026-12-31 16:41:38'],
    ['first day of this month', '2026-11-01 16:41:38'],
    ['last day of february 2028', '2028-02-29 00:00:00'],
    ['first day of next month midnight', '2026-12-01 00:00:00'],
    ['tomorrow +1 hour', '2026-11-22 01:00:00'],
    ['Tomorrow 9AM', '2026-11-22 09:00:00'],
  ])('%s → %s', (input, expected) => {
    expect(parse(input)).toBe(expected);
  });

  it('works in the given zone (NOW is 11:41:38 in New York)', () => {
    expect(parse('now', 'America/New_York')).toBe('2026-11-21 11:41:38');
    expect(parse('tomorrow 9am', 'America/New_York')).toBe('2026-11-22 09:00:00');
    // Shortly after midnight UTC it is still the previous day in New York.
    const lateNight = Date.UTC(2026, 10, 22, 2, 0, 0);
    expect(parse('today', 'America/New_York', lateNight)).toBe('2026-11-21 00:00:00');
    expect(parse('today', 'UTC', lateNight)).toBe('2026-11-22 00:00:00');
  });

  it('overflows months like PHP (Jan 31 + 1 month = Mar 3)', () => {
    expect(parse('+1 month', 'UTC', Date.UTC(2027, 0, 31, 10, 0, 0))).toBe('2027-03-03 10:00:00');
  });

  it('falls back to chrono-node for phrasings it covers entirely', () => {
    expect(parse('next friday at noon')).toBe('2026-11-27 12:00:00');
  });

  it.each(['notadate', 'not a date', '', '   ', 'tomorrow maybe', '2027-13-01', '25:00', '13pm'])('rejects %j', (input) => {
    expect(parse(input)).toBeNull();
  });
});

describe('day bounds and all-day snapping', () => {
  it('snaps to 00:00:00 and 23:59:59', () => {
    expect(startOfDay('2027-02-01 15:30:00')).toBe('2027-02-01 00:00:00');
    expect(endOfDay('2027-02-01 15:30:00')).toBe('2027-02-01 23:59:59');
    expect(endOfDay('2027-02-28')).toBe('2027-02-28 23:59:59');
  });
  it('honours a multi-day cutoff', () => {
    expect(startOfDay('2027-02-01 15:30:00', '04:30')).toBe('2027-02-01 04:30:00');
    expect(endOfDay('2027-02-01 15:30:00', '04:30')).toBe('2027-02-02 04:29:59');
  });
  it('keeps multi-day all-day events', () => {
    expect(allDayBounds('2027-03-10 09:00:00', '2027-03-12 17:00:00')).toEqual({ start: '2027-03-10 00:00:00', end: '2027-03-12 23:59:59' });
  });
});

describe('eventDateFields: the captured creates', () => {
  const site = DEFAULT_SETTINGS; // timezone_string "", gmt_offset 0
  it.each(['021-event-create-full', '022-event-create-all-day', '023-event-create-multiday', '024-event-create-past', '025-event-create-inline-venue-organizer', '026-event-create-draft'])(
    '%s',
    (name) => {
      const body = captureRequestBody(name)!;
      const wire = captureJson(name);
      // TEC parses in the site zone (UTC here); only the wall clock is kept.
      const start = wallClock(parseDateInput(body.start_date, 'UTC', NOW)!);
      const end = wallClock(parseDateInput(body.end_date, 'UTC', NOW)!);
      const fields = eventDateFields({ start, end, allDay: body.all_day === true, timezone: body.timezone ?? '', settings: site });
      expect(fields).toEqual({
        startDate: wire.start_date,
        endDate: wire.end_date,
        startDateUtc: wire.utc_start_date,
        endDateUtc: wire.utc_end_date,
        timezone: wire.timezone,
        timezoneAbbr: wire.timezone_abbr,
      });
    },
  );

  it('moves an end before the start to the start (the UTC end keeps the original: upstream quirk)', () => {
    const fields = eventDateFields({ start: '2027-01-02 10:00:00', end: '2027-01-01 10:00:00', allDay: false, timezone: 'UTC+2', settings: site });
    expect(fields.endDate).toBe('2027-01-02 10:00:00');
    expect(fields.startDateUtc).toBe('2027-01-02 08:00:00');
    expect(fields.endDateUtc).toBe('2027-01-01 08:00:00');
    expect(fields.timezoneAbbr).toBe('UTC+2');
  });

  it('uses the site zone name when none was given', () => {
    const fields = eventDateFields({ start: '2027-07-01 10:00:00', end: '2027-07-01 12:00:00', allDay: false, timezone: '', settings: { timezone_string: 'Europe/Paris', gmt_offset: 0 } });
    expect(fields).toMatchObject({ timezone: 'Europe/Paris', timezoneAbbr: 'CEST', startDateUtc: '2027-07-01 08:00:00' });
  });
});
