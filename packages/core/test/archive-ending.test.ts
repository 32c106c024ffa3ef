import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fragmentOf, listClosing, shareJoinedList } from '../src/fragment-cache.js';
import { encodeJson } from '../src/http/json.js';
import { joinParts, sharedBytes } from '../src/answer-cache.js';
import { addQueryArgs, archiveEnding, withQuery, withQueryValues, type QueryValue } from '../src/namespaces/calendar/posts/rest-url.js';

const BASE = 'http://example.test/api/cal/events/v1/events/?per_page=2&start_date=2026-11-20%2000:00:00';

/** A list answer put together as the events and linked lists do it, and its bytes. */
function listBytes(restUrl: string, page: number, perPage: number, total: number, closing: 'given' | 'worked out'): { data: object; bytes: Buffer } {
  const ending = archiveEnding(restUrl, page, perPage, total);
  const items = [fragmentOf({ id: 1, title: 'a/b' }, [], 0), fragmentOf({ id: 2, title: 'é' }, [], 0)];
  const data = { events: items.map((item) => item.data), ...ending.after };
  shareJoinedList(data, 'events', items, closing === 'given' ? ending.closing : undefined);
  return { data, bytes: joinParts(sharedBytes(data) as readonly Uint8Array[]) };
}

describe('archive endings', () => {
  it('close a list with the bytes the whole answer encodes to, on every page', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 9 }), fc.integer({ min: 1, max: 5 }), fc.nat({ max: 50 }), (page, perPage, total) => {
        const given = listBytes(BASE, page, perPage, total, 'given');
        expect(given.bytes.toString()).toBe(encodeJson(given.data));
        expect(given.bytes.equals(listBytes(BASE, page, perPage, total, 'worked out').bytes)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('keep TEC’s key order and paging links', () => {
    const { data } = listBytes(BASE, 2, 2, 7, 'given');
    expect(Object.keys(data)).toEqual(['events', 'rest_url', 'next_rest_url', 'previous_rest_url', 'total', 'total_pages']);
    expect(Object.keys(archiveEnding(BASE, 4, 2, 7).after)).toEqual(['rest_url', 'previous_rest_url', 'total', 'total_pages']);
    expect(archiveEnding(BASE, 1, 2, 7).after).toMatchObject({ total: 7, total_pages: 4 });
    expect(archiveEnding(BASE, 1, 2, 0).closing.toString()).toBe(`],"rest_url":${encodeJson(BASE)},"total":0,"total_pages":0}`);
  });

  it('are made once and shared frozen, so no request can change another’s', () => {
    const first = archiveEnding(BASE, 3, 2, 7);
    expect(archiveEnding(BASE, 3, 2, 7)).toBe(first);
    expect(archiveEnding(BASE, 3, 2, 8)).not.toBe(first);
    expect(Object.isFrozen(first) && Object.isFrozen(first.after)).toBe(true);
  });

  it('are not kept for long URLs (a client picks the URL): the same answer, worked out each time', () => {
    const long = `${BASE}&search=${'a'.repeat(2_000)}`;
    const [first, second] = [archiveEnding(long, 2, 2, 7), archiveEnding(long, 2, 2, 7)];
    expect(second).not.toBe(first);
    expect(second).toEqual(first);
    expect(first.after.next_rest_url).toMatch(/[?&]page=3(&|$)/);
    expect(first.after.next_rest_url!.length).toBeGreaterThan(2_000);
    expect(first.closing.toString()).toBe(listClosing(first.after));
  });
});

describe('withQuery', () => {
  it('writes what add_query_arg does on a bare URL, for every kind of value, pairs or keys and values apart', () => {
    const value: fc.Arbitrary<QueryValue> = fc.oneof(
      fc.string({ unit: fc.constantFrom('a', '=', '&', ' ', '%', '+', 'é') }),
      fc.integer(),
      fc.boolean(),
      fc.constant(null),
      fc.constant(undefined),
      fc.array(fc.oneof(fc.string({ maxLength: 3 }), fc.integer()), { maxLength: 3 }),
    );
    const args = fc.uniqueArray(fc.tuple(fc.constantFrom('page', 'per_page', 'start_date', 'search', 'status', 'include', 'x='), value), { selector: ([key]) => key, maxLength: 7 });
    fc.assert(
      fc.property(fc.constantFrom('http://example.test/api/cal/events/v1/events/', 'http://example.test/?rest_route=/cal/events/v1/events/&page=1'), args, (base, pairs) => {
        const mutable = pairs.map(([key, item]): [string, QueryValue] => [key, item]);
        const expected = addQueryArgs(base, mutable, { reencode: false });
        expect(withQuery(base, mutable)).toBe(expected);
        // The same with the keys and the values apart (the events list's rest_url).
        expect(withQueryValues(base, mutable.map(([key]) => key), mutable.map(([, item]) => item))).toBe(expected);
      }),
      { numRuns: 1000 },
    );
  });
});
