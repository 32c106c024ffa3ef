import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import {
  isUtcOffset,
  isValidTimezone,
  siteTimezoneName,
  timezoneAbbr,
  utcOffsetMinutes,
  zoneFromUtcOffset,
  zoneOf,
} from '../../src/namespaces/calendar/format/timezones.js';
import { wallClockToUtc } from '../../src/time.js';
import { captureJson } from './captures.js';

describe('isValidTimezone (Tribe__Timezones::is_valid_timezone)', () => {
  it.each(['America/New_York', 'Europe/Paris', 'UTC', 'utc', 'UTC+0', 'UTC+2', 'UTC-5.5', 'UTC+5:30', 'UTCanything', '+02:00', '-0500', 'EST', 'CET'])(
    'accepts %j',
    (tz) => expect(isValidTimezone(tz)).toBe(true),
  );
  it.each(['', 'Mars/Olympus', 'not a zone', 42, null])('rejects %j', (tz) => expect(isValidTimezone(tz)).toBe(false));
});

describe('isUtcOffset', () => {
  it('is any name starting with UTC and longer than it', () => {
    expect(isUtcOffset('UTC+2')).toBe(true);
    expect(isUtcOffset('UTC')).toBe(false);
    expect(isUtcOffset('America/New_York')).toBe(false);
  });
});

describe('siteTimezoneName (wp_timezone_string)', () => {
  it('matches the capture site (timezone_string "", gmt_offset 0)', () => {
    expect(siteTimezoneName({ timezone_string: '', gmt_offset: 0 })).toBe(captureJson('022-event-create-all-day').timezone);
  });
  it.each([
    [{ timezone_string: 'Europe/Berlin', gmt_offset: 0 }, 'Europe/Berlin'],
    [{ timezone_string: '', gmt_offset: 5.5 }, 'UTC+5.5'],
    [{ timezone_string: '', gmt_offset: -3 }, 'UTC-3'],
    [{ timezone_string: '', gmt_offset: 12.75 }, 'UTC+12.75'],
  ])('%j → %s', (settings, expected) => expect(siteTimezoneName(settings)).toBe(expected));
});

describe('timezoneAbbr', () => {
  it('matches the captures', () => {
    const full = captureJson('021-event-create-full');
    expect(timezoneAbbr(full.timezone, full.start_date)).toBe(full.timezone_abbr);
    const allDay = captureJson('022-event-create-all-day');
    expect(timezoneAbbr(allDay.timezone, allDay.start_date)).toBe(allDay.timezone_abbr);
  });
  it.each([
    ['America/New_York', '2027-07-04 12:00:00', 'EDT'],
    ['America/Los_Angeles', '2027-01-15 12:00:00', 'PST'],
    ['Europe/Paris', '2027-01-15 12:00:00', 'CET'],
    ['Europe/Paris', '2027-07-15 12:00:00', 'CEST'],
    ['Europe/London', '2027-01-15 12:00:00', 'GMT'],
    ['Asia/Tokyo', '2027-01-15 12:00:00', 'JST'],
    ['Australia/Sydney', '2027-01-15 12:00:00', 'AEDT'],
    ['Asia/Kolkata', '2027-01-15 12:00:00', 'IST'],
    ['UTC', '2027-01-15 12:00:00', 'UTC'],
    ['America/Sao_Paulo', '2027-01-15 12:00:00', '-03'],
    ['UTC+5.5', '2027-01-15 12:00:00', 'UTC+5.5'],
  ])('%s at %s → %s', (tz, at, expected) => expect(timezoneAbbr(tz, at)).toBe(expected));

  it("gives luxon's own short zone names for every zone Intl knows, in winter and in summer", () => {
    // The names as luxon's offsetNameShort gives them (a new Intl formatter per call), tried in the same locales.
    const locales = ['en-US', 'en-GB', 'en-AU', 'en-IN', 'en-NZ', 'en-ZA', 'ja-JP', 'en-IE', 'en-CA'];
    const viaLuxon = (zone: string, at: string): string => {
      const local = DateTime.fromFormat(at, 'yyyy-MM-dd HH:mm:ss', { zone });
      for (const locale of locales) {
        const name = local.setLocale(locale).offsetNameShort;
        if (name && !/^(GMT|UTC)[+-−]/.test(name)) return name === 'GMT' && zone === 'UTC' ? 'UTC' : name;
      }
      const minutes = Math.abs(local.offset);
      const sign = local.offset < 0 ? '-' : '+';
      return `${sign}${String(Math.floor(minutes / 60)).padStart(2, '0')}${minutes % 60 ? String(minutes % 60).padStart(2, '0') : ''}`;
    };
    const zones = Intl.supportedValuesOf('timeZone').filter((zone) => isValidTimezone(zone) && !isUtcOffset(zone));
    expect(zones.length).toBeGreaterThan(300);
    for (const at of ['2027-01-15 12:00:00', '2027-07-15 12:00:00']) {
      for (const zone of zones) expect([zone, timezoneAbbr(zone, at)]).toEqual([zone, viaLuxon(zone, at)]);
    }
  });

  it('uses the site zone for an invalid zone', () => {
    expect(timezoneAbbr('Mars/Olympus', '2027-01-15 12:00:00', { timezone_string: 'America/Chicago', gmt_offset: 0 })).toBe('CST');
    expect(timezoneAbbr('Mars/Olympus', '2027-01-15 12:00:00', { timezone_string: '', gmt_offset: 2 })).toBe('UTC+2');
  });

  it('accepts an instant', () => {
    expect(timezoneAbbr('America/New_York', DateTime.fromISO('2027-07-04T12:00:00Z'))).toBe('EDT');
    expect(timezoneAbbr('America/New_York', Date.UTC(2027, 0, 15))).toBe('EST');
  });
});

describe('zoneOf / offsets', () => {
  it('turns UTC±n names into fixed offsets the way TEC shifts them', () => {
    expect(zoneOf('UTC+0').offset(0)).toBe(0);
    expect(zoneOf('UTC+2').offset(0)).toBe(120);
    expect(zoneOf('UTC-5.5').offset(0)).toBe(-330);
    expect(zoneOf('UTC+5:30').offset(0)).toBe(330);
    // Upstream quirk: an offset whose whole hours are 0 is not applied at all.
    expect(utcOffsetMinutes('UTC+0.5')).toBe(0);
  });
  it('handles ids, numeric offsets and unknown names', () => {
    expect(zoneOf('America/New_York').name).toBe('America/New_York');
    expect(zoneOf('+02:00').offset(0)).toBe(120);
    expect(zoneOf('Mars/Olympus').offset(0)).toBe(0);
    expect(zoneOf('').offset(0)).toBe(0);
  });
  it('zoneFromUtcOffset follows timezone_from_utc_offset', () => {
    expect(zoneFromUtcOffset('UTC+5.5')!.offset(0)).toBe(330);
    expect(zoneFromUtcOffset('UTC-2')!.offset(0)).toBe(-120);
    expect(zoneFromUtcOffset('UTC+5.05')!.offset(0)).toBe(330);
    expect(zoneFromUtcOffset('UTC+05:30')).toBeNull();
  });
  it('wallClockToUtc reproduces the captured UTC dates', () => {
    const full = captureJson('021-event-create-full');
    expect(wallClockToUtc(full.start_date, zoneOf(full.timezone))).toBe(full.utc_start_date);
    expect(wallClockToUtc(full.end_date, zoneOf(full.timezone))).toBe(full.utc_end_date);
    expect(wallClockToUtc('2027-01-15 10:00:00', zoneOf('UTC-5.5'))).toBe('2027-01-15 15:30:00');
  });
});
