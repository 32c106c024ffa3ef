import { describe, expect, it } from 'vitest';
import type { EventQuery } from '@siterest/core';
import { matchKey } from '../src/calendar/events.js';

/** Every field set: typed Required, so a field added to EventQuery must be added here too. */
const FULL: Required<EventQuery> = {
  statuses: ['publish', 'private'],
  visibility: { statuses: ['publish'], authorId: 3, ownStatuses: ['private'] },
  startsAfter: '2027-01-01 00:00:00',
  startsBefore: '2027-02-01 00:00:00',
  endsAfter: '2027-01-02 00:00:00',
  endsBefore: '2027-02-02 00:00:00',
  search: 'jazz night',
  categoryIds: [4, 5],
  tagIds: [6],
  venueIds: [7],
  organizerIds: [8, 9],
  featured: true,
  include: [10],
  parentId: 11,
  excludeHidden: true,
  geo: { near: { lat: 52.5, lng: 13.4, radiusKm: 25 } },
  orderBy: 'start',
  offset: 20,
  limit: 10,
};

/** Another value for each field (the page's fields name the same matches). */
const CHANGED: { [F in keyof Required<EventQuery>]: EventQuery[F] | 'same' } = {
  statuses: 'any',
  visibility: { statuses: ['publish'], authorId: 4, ownStatuses: ['private'] },
  startsAfter: '2027-01-01 00:00:01',
  startsBefore: undefined,
  endsAfter: '2027-01-02 00:00:01',
  endsBefore: '2027-02-02 00:00:01',
  search: 'jazz night ',
  categoryIds: [45],
  tagIds: [],
  venueIds: [7, 7],
  organizerIds: [8],
  featured: false,
  include: undefined,
  parentId: 0,
  excludeHidden: false,
  geo: {},
  orderBy: 'date',
  offset: 'same',
  limit: 'same',
};

describe('memory store: the key of a query\'s remembered matches', () => {
  it('changes with every field but the page\'s', () => {
    const base = matchKey(FULL);
    for (const [field, value] of Object.entries(CHANGED) as Array<[keyof EventQuery, unknown]>) {
      const changed = { ...FULL, [field]: value === 'same' ? (field === 'offset' ? 0 : 50) : value } as EventQuery;
      if (value === 'same') expect(matchKey(changed), field).toBe(base);
      else expect(matchKey(changed), field).not.toBe(base);
    }
  });

  it('never gives two queries of texts that differ the same key', () => {
    const keys = new Set(
      [['a|b', 'c'], ['a', '|bc'], ['1:a', ''], ['', '1:a'], ['a,b', 'c'], ['a', 'b,c']].map(([search, start]) =>
        matchKey({ statuses: [search!, start!], search, startsAfter: start, orderBy: 'start', offset: 0, limit: 10 }),
      ),
    );
    expect(keys.size).toBe(6);
  });
});
