import fc from 'fast-check';
import { DateTime, FixedOffsetZone } from 'luxon';
import { describe, expect, it } from 'vitest';
import { readWpDate, WP_FORMAT } from '../src/time.js';

/** What luxon itself makes of the text: the reading readWpDate must give. */
function luxonReading(text: string, zone: string | FixedOffsetZone): unknown {
  const dt = DateTime.fromFormat(text, WP_FORMAT, { zone });
  return dt.isValid ? { iso: dt.toISO(), zone: dt.zoneName, offset: dt.offset } : { invalid: dt.invalidReason };
}

function reading(text: string, zone: string | FixedOffsetZone): unknown {
  const dt = readWpDate(text, zone);
  return dt.isValid ? { iso: dt.toISO(), zone: dt.zoneName, offset: dt.offset } : { invalid: dt.invalidReason };
}

const zones = ['UTC', 'America/New_York', 'Europe/Berlin', 'Australia/Lord_Howe', 'Asia/Kolkata', 'Pacific/Chatham', 'America/Sao_Paulo', 'Mars/Olympus'];

describe('readWpDate', () => {
  it("reads WordPress dates as luxon's fromFormat does: out-of-range fields, clock changes, other zones", () => {
    const padded = (max: number, width: number) => fc.nat({ max }).map((n) => String(n).padStart(width, '0'));
    const text = fc.tuple(padded(9999, 4), padded(99, 2), padded(99, 2), padded(99, 2), padded(99, 2), padded(99, 2)).map(([y, mo, d, h, mi, s]) => `${y}-${mo}-${d} ${h}:${mi}:${s}`);
    const zone = fc.oneof(fc.constantFrom(...zones), fc.integer({ min: -840, max: 840 }).map((minutes) => FixedOffsetZone.instance(minutes)));
    fc.assert(
      fc.property(text, zone, (t, z) => {
        expect(reading(t, z)).toEqual(luxonReading(t, z));
      }),
      { numRuns: 2000 },
    );
  });

  it('reads the hours a clock change skips or repeats as luxon does', () => {
    for (const text of ['2027-03-14 02:30:00', '2027-11-07 01:30:00', '2027-03-28 02:30:00', '2027-10-31 02:30:00', '2027-04-04 02:00:00']) {
      for (const zone of zones) expect(reading(text, zone)).toEqual(luxonReading(text, zone));
    }
  });

  it('leaves text of any other shape to luxon', () => {
    for (const text of ['', '2027-01-15', '2027-1-15 10:00:00', '2027-01-15T10:00:00', ' 2027-01-15 10:00:00', '2027-01-15 10:00:00 ', '２０２７-01-15 10:00:00', '12027-01-15 10:00:00']) {
      expect(reading(text, 'Europe/Berlin')).toEqual(luxonReading(text, 'Europe/Berlin'));
    }
  });
});
