import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventQuery, LinkedPostQuery, Maybe, SiteStore, TermQuery } from '@siterest/core';
import { newEvent, newOrganizer, newVenue, taxonomies } from '@siterest/core/testing';
import { memoryStore } from '@siterest/store-memory';
import { postgresStore, type PostgresStore } from '../src/index.js';
import { dropSchema, openTestDatabase, uniqueSchema, type TestDatabase } from './support/database.js';

/**
 * The memory store is the reference: the same writes and random queries must give the same pages and totals.
 * This reaches the query shapes the contract's small fixtures do not (terms driving the scan, several
 * filters at once, paging, copies of list keys after updates).
 */
let db: TestDatabase;
let pg: PostgresStore;
const memory = memoryStore();
const schema = uniqueSchema('equivalence');

function random(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (Math.imul(state ^ (state >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    return state / 2 ** 32;
  };
  return {
    next,
    int: (n: number) => Math.floor(next() * n),
    pick: <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]!,
    some: <T>(list: readonly T[], max: number) => Array.from({ length: Math.floor(next() * (max + 1)) }, () => list[Math.floor(next() * list.length)]!),
    chance: (p: number) => next() < p,
  };
}

const WORDS = ['jazz', 'rock', 'Night', 'market', 'art', 'party', 'kids', 'yoga', '100%', 'a_b'];
const STATUSES = ['publish', 'publish', 'publish', 'draft', 'private', 'trash'];
const day = (n: number) => new Date(Date.UTC(2027, 0, 1) + n * 86_400_000).toISOString().slice(0, 19).replace('T', ' ');

async function both<T>(work: (store: SiteStore) => Maybe<T>): Promise<[T, T]> {
  return [await work(memory), await work(pg)];
}

const categories: number[] = [];
const tags: number[] = [];
const venues: number[] = [];
const organizers: number[] = [];
const events: number[] = [];

beforeAll(async () => {
  db = await openTestDatabase();
  pg = postgresStore({ ...db.connection(), schema });
  await pg.migrate();
  const r = random(7);
  for (let i = 0; i < 8; i++) {
    const [a, b] = await both((s) => s.terms.create({ taxonomy: taxonomies.category, name: `Cat ${i}`, slug: `cat-${i}`, description: '', parentId: i > 3 ? categories[i - 4]! : 0 }));
    expect(b.id).toBe(a.id);
    categories.push(a.id);
  }
  for (let i = 0; i < 5; i++) tags.push((await both((s) => s.terms.create({ taxonomy: taxonomies.tag, name: `Tag ${i}`, slug: `tag-${i}`, description: '', parentId: 0 })))[0].id);
  for (let i = 0; i < 4; i++) {
    const geo = i % 2 === 0 ? { geoLat: 51 + i / 10, geoLng: -0.1 } : {};
    venues.push((await both((s) => s.venues.create(newVenue({ title: `Venue ${i} ${WORDS[i]}`, city: i === 1 ? 'Springfield' : '', status: i === 3 ? 'draft' : 'publish', authorId: 1 + (i % 3), date: day(-100 + i), ...geo }))))[0].id);
  }
  for (let i = 0; i < 3; i++) organizers.push((await both((s) => s.organizers.create(newOrganizer({ title: `Org ${i}`, email: `org${i}@example.com` }))))[0].id);
  for (let i = 0; i < 160; i++) {
    const start = r.int(400) - 100;
    const input = newEvent({
      title: `${r.pick(WORDS)} ${r.pick(WORDS)} ${i}`,
      authorId: 1 + (i % 3),
      content: r.chance(0.5) ? `An evening of ${r.pick(WORDS)}` : '',
      excerpt: r.chance(0.2) ? r.pick(WORDS) : '',
      status: r.pick(STATUSES),
      date: day(r.int(30) - 200),
      startDateUtc: `${day(start).slice(0, 10)} ${r.pick(['10:00:00', '19:30:00'])}`,
      endDateUtc: `${day(start + r.int(3)).slice(0, 10)} 23:00:00`,
      hideFromListings: r.chance(0.1),
      featured: r.chance(0.15),
      parentId: r.chance(0.1) ? 5 : 0,
      categoryIds: r.some([...categories, 9999], 2),
      tagIds: r.some(tags, 2),
      venueIds: r.some(venues, 1),
      organizerIds: r.some(organizers, 2),
    });
    const [a, b] = await both((s) => s.events.create(input));
    expect(b).toEqual(a);
    events.push(a.id);
  }
  // Updates move status, start and visibility under existing term assignments, and replace some assignments.
  for (let i = 0; i < 60; i++) {
    const id = r.pick(events);
    const patch = r.pick([
      { status: r.pick(STATUSES) },
      { startDateUtc: `${day(r.int(300)).slice(0, 10)} 12:00:00`, endDateUtc: `${day(301).slice(0, 10)} 12:00:00` },
      { hideFromListings: r.chance(0.5) },
      { categoryIds: r.some(categories, 3) },
      { tagIds: r.some(tags, 2), status: 'publish' },
      // The searched text changes under the same list keys.
      { title: `${r.pick(WORDS)} ${i}`, content: r.chance(0.5) ? `Late ${r.pick(WORDS)}` : '', excerpt: r.chance(0.3) ? r.pick(WORDS) : '' },
    ]);
    const [a, b] = await both((s) => s.events.update(id, patch));
    expect(b).toEqual(a);
  }
});

afterAll(async () => {
  await pg?.close();
  if (db) {
    await dropSchema(db, schema);
    await db.close();
  }
});

function randomEventQuery(r: ReturnType<typeof random>): EventQuery {
  const q: EventQuery = {
    statuses: r.pick<EventQuery['statuses']>([['publish'], ['publish'], ['publish', 'private'], 'any', ['draft'], ['trash']]),
    orderBy: r.chance(0.85) ? 'start' : 'date',
    offset: r.pick([0, 0, 0, 3, 10, 200]),
    limit: r.pick([1, 5, 10, 50]),
  };
  if (r.chance(0.6)) q.startsAfter = day(r.int(200) - 50);
  if (r.chance(0.4)) q.startsBefore = day(r.int(300));
  if (r.chance(0.15)) q.endsAfter = day(r.int(300) - 50);
  if (r.chance(0.1)) q.endsBefore = day(r.int(300));
  if (r.chance(0.5)) q.excludeHidden = true;
  if (r.chance(0.35)) q.categoryIds = r.some([...categories, 4242], 3);
  if (r.chance(0.25)) q.tagIds = r.some(tags, 2);
  if (r.chance(0.15)) q.venueIds = r.some(venues, 2);
  if (r.chance(0.1)) q.organizerIds = r.some(organizers, 2);
  if (r.chance(0.1)) q.featured = r.chance(0.5);
  if (r.chance(0.1)) q.include = r.some(events, 20);
  if (r.chance(0.05)) q.parentId = r.pick([0, 5]);
  // '"2 an"' and '"jazz late"' would match across two columns (title "… 12" then content "An evening …").
  if (r.chance(0.15)) q.search = r.pick(['jazz', 'NIGHT rock', '"of jazz"', '100%', 'a_b', 'ar', '"2 an"', '"jazz late"', 'evening -rock']);
  if (r.chance(0.05)) q.geo = r.chance(0.5) ? {} : { near: { lat: 51.1, lng: -0.1, radiusKm: 20 } };
  if (r.chance(0.3)) q.visibility = randomVisibility(r);
  return q;
}

/** A read clause as the services build them: some statuses for all, maybe more for one author's own. */
function randomVisibility(r: ReturnType<typeof random>): EventQuery['visibility'] {
  const statuses = r.pick([['publish'], ['publish', 'private'], []]);
  return r.chance(0.7) ? { statuses, authorId: 1 + r.int(3), ownStatuses: r.pick([['draft'], ['draft', 'private', 'trash']]) } : { statuses };
}

const summary = (page: { items: Array<{ id: number }>; total: number }) => ({ ids: page.items.map((e) => e.id), total: page.total });

describe('the PostgreSQL store answers like the memory store', () => {
  it('event lists: 400 random queries', async () => {
    const r = random(11);
    for (let i = 0; i < 400; i++) {
      const q = randomEventQuery(r);
      const [a, b] = await both((s) => s.events.list(q));
      expect({ q, ...summary(b) }).toEqual({ q, ...summary(a) });
    }
  });

  it('full records in lists, term counts and term lists after all the writes', async () => {
    const q: EventQuery = { statuses: 'any', orderBy: 'start', offset: 0, limit: 1000 };
    const [a, b] = await both((s) => s.events.list(q));
    expect(b).toEqual(a);
    const r = random(3);
    for (let i = 0; i < 60; i++) {
      const tq: TermQuery = {
        taxonomy: r.pick([taxonomies.category, taxonomies.tag]),
        orderBy: r.pick<TermQuery['orderBy']>(['name', 'id', 'slug', 'count', 'parent', 'none']),
        order: r.pick(['asc', 'desc'] as const),
        offset: r.pick([0, 2]),
        limit: r.pick([3, 100]),
        ...(r.chance(0.4) ? { hideEmpty: true, hierarchical: r.chance(0.5) } : {}),
        ...(r.chance(0.2) ? { objectId: r.pick(events) } : {}),
        ...(r.chance(0.2) ? { parentId: r.pick([0, categories[0]!]) } : {}),
      };
      const [ta, tb] = await both((s) => s.terms.list(tq));
      expect({ tq, page: tb }).toEqual({ tq, page: ta });
    }
  });

  it('venue and organizer lists with their event relations', async () => {
    const r = random(5);
    for (let i = 0; i < 80; i++) {
      const lq: LinkedPostQuery = {
        statuses: r.pick<LinkedPostQuery['statuses']>([['publish'], 'any']),
        offset: r.pick([0, 1]),
        limit: r.pick([2, 50]),
        ...(r.chance(0.3) ? { hasEvents: r.chance(0.5), eventStatuses: r.pick([['publish'], ['publish', 'draft']]) } : {}),
        ...(r.chance(0.3) ? { upcomingAfter: day(r.int(300)), eventStatuses: ['publish'] } : {}),
        ...(r.chance(0.2) ? { eventId: r.pick(events) } : {}),
        ...(r.chance(0.2) ? { search: r.pick(['venue', 'springfield', 'org1@', 'jazz']) } : {}),
        ...(r.chance(0.3) ? { visibility: randomVisibility(r) } : {}),
        ...(r.chance(0.3) ? { eventVisibility: randomVisibility(r) } : {}),
      };
      const repo = r.chance(0.6) ? 'venues' : 'organizers';
      const [a, b] = await both((s): Maybe<unknown> => s[repo].list(lq));
      expect({ repo, lq, page: b }).toEqual({ repo, lq, page: a });
    }
  });
});
