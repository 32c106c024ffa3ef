import fc from 'fast-check';
import { ZERO_DATE } from '@siterest/core';

/** Statuses the list tests write, the public one first. */
export const STATUSES = ['publish', 'draft', 'private', 'trash'] as const;

/** Minutes in a day. */
export const DAY = 24 * 60;

const base = Date.UTC(2027, 2, 10);

/** Minutes from 2027-03-10 00:00 UTC as a WordPress UTC instant. */
export const at = (minutes: number): string => new Date(base + minutes * 60_000).toISOString().slice(0, 19).replace('T', ' ');

/** A start in minutes over the test's five days (also unbiased, see windowBound), or now and then none (the zero date). */
export const eventStart = (minute: fc.Arbitrary<number>): fc.Arbitrary<number | null> =>
  fc.oneof({ arbitrary: minute, weight: 5 }, { arbitrary: fc.noBias(minute), weight: 4 }, { arbitrary: fc.constant(null), weight: 1 });

/** The start and end of a random event (eventStart): `duration` minutes apart, or both the zero date. */
export function eventTimes(start: number | null, duration: number): { startDateUtc: string; endDateUtc: string } {
  return start === null ? { startDateUtc: ZERO_DATE, endDateUtc: ZERO_DATE } : { startDateUtc: at(start), endDateUtc: at(start + duration) };
}

/**
 * A window bound: any minute (also unbiased, as fast-check favours the ends of a range: times late in a day, which
 * an upper bound takes its day in whole for, came too seldom), a day's first or last second (the API's whole-day
 * windows), or none.
 */
const windowBound = (minute: fc.Arbitrary<number>): fc.Arbitrary<string | undefined> =>
  fc.option(
    fc.oneof(
      minute.map((m) => at(m)),
      fc.noBias(minute).map((m) => at(m)),
      fc.integer({ min: -1, max: 4 }).map((d) => at(d * DAY)),
      fc.integer({ min: -1, max: 4 }).map((d) => `${at(d * DAY).slice(0, 10)} 23:59:59`),
    ),
    { nil: undefined },
  );

/** The window and paging fields of a random list query (spread into fc.record). */
export function windowAndPage(minute: fc.Arbitrary<number>) {
  const bound = windowBound(minute);
  return {
    startsAfter: bound,
    startsBefore: bound,
    endsAfter: bound,
    endsBefore: bound,
    offset: fc.oneof(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 30 })),
    limit: fc.integer({ min: 1, max: 10 }),
  };
}
