import fc from 'fast-check';
import { beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { createSite, silentLogger, ZERO_DATE, type EventQuery } from '@siterest/core';
import { newEvent, newVenue } from '@siterest/core/testing';
import { postgresStore, type PostgresStore } from '../src/index.js';
import { eventListSql } from '../src/repositories/calendar/event-list.js';
import { tablesIn } from '../src/tables.js';
import { patientConnection, useSharedSchema, type TestDatabase } from './support/database.js';
import { at, DAY, eventStart, eventTimes, STATUSES, windowAndPage } from './support/windows.js';

/**
 * event_day_counts (migration 012) against the events themselves: the table equals a recount after any writes,
 * concurrent ones included, and a list total taken from it equals a plain count(*) of the same condition (the page
 * equals the plain ordered query's).
 */
// A thousand writers at once queue for each instance's ten connections behind the row locks of a few events: on a
// loaded machine the last of them wait longer than the store's 5 s for a connection, which these tests are not
// about (limits.test.ts tests that wait).
const shared = useSharedSchema('daycounts', { emptiedBeforeEach: true, connectionTimeout: 60_000 });
const { schema } = shared;
const s = `"${schema}"`;
let db: TestDatabase;
let store: PostgresStore;
/** A second instance on the same schema, as another process of the app would be. */
let other: PostgresStore;
beforeAll(() => void ({ db, store, other } = shared));


const KEY = `status, hide_from_listings AS hidden, start_day::text AS start_day, end_day::text AS end_day, located`;

/** Whether one of an event's venues has coordinates, from the venues themselves (what `events.located` keeps). */
const HAS_LOCATED_VENUE = `EXISTS (SELECT 1 FROM ${s}.venues v WHERE v.post_id = ANY(e.venue_ids) AND v.geo_lat IS NOT NULL AND v.geo_lng IS NOT NULL)`;

/**
 * The counts table without its emptied rows, and the same grouping counted from `events`, in one order; and the
 * events whose located flag (migration 65) is not what their venues say.
 */
async function countsAndRecount() {
  const counts = await db.admin(`SELECT ${KEY}, n::int AS n FROM ${s}.event_day_counts WHERE n <> 0 ORDER BY 1, 2, 3, 4, 5`);
  const recount = await db.admin(
    `SELECT ${KEY}, n::int AS n FROM (SELECT status, hide_from_listings, start_utc::date AS start_day, end_utc::date AS end_day, located, count(*) AS n
       FROM ${s}.events GROUP BY 1, 2, 3, 4, 5) r ORDER BY 1, 2, 3, 4, 5`,
  );
  const misplaced = await db.admin(`SELECT e.post_id::int AS id FROM ${s}.events e WHERE e.located IS DISTINCT FROM ${HAS_LOCATED_VENUE}`);
  expect(misplaced).toEqual([]);
  return { counts, recount };
}

/**
 * Two instances on the test's schema, closed after the test, for a thousand concurrent writers: they queue for 20
 * connections, which on a loaded machine takes longer than a pool's usual 5 s wait (patientConnection).
 */
function patientInstances(): PostgresStore[] {
  const instances = ['a', 'b'].map((name) => postgresStore({ ...patientConnection(db, `siterest-test-patient-${name}`), schema }));
  onTestFinished(() => Promise.all(instances.map((instance) => instance.close())).then(() => undefined));
  return instances;
}


describe('event_day_counts', () => {
  it('equals a recount after creates, updates of every key and deletes, one statement of many rows included', async () => {
    const a = await store.events.create(newEvent({ startDateUtc: at(60), endDateUtc: at(120) }));
    const b = await store.events.create(newEvent({ startDateUtc: at(DAY - 1), endDateUtc: at(3 * DAY), status: 'draft' }));
    const c = await other.events.create(newEvent({ startDateUtc: ZERO_DATE, endDateUtc: ZERO_DATE, hideFromListings: true }));
    await store.events.update(a.id, { status: 'private' });
    await store.events.update(b.id, { hideFromListings: true });
    await other.events.update(c.id, { startDateUtc: at(2 * DAY), endDateUtc: at(2 * DAY - 30) });
    await store.events.update(a.id, { startDateUtc: at(5 * DAY), endDateUtc: at(6 * DAY) });
    await store.events.update(a.id, { title: 'Only the title' });
    let { counts, recount } = await countsAndRecount();
    expect(counts).toEqual(recount);
    expect(recount).toHaveLength(3);

    await db.admin(`UPDATE ${s}.events SET start_utc = start_utc + interval '1 day', status = 'publish'`);
    await db.admin(`DELETE FROM ${s}.posts WHERE id = $1`, [b.id]);
    ({ counts, recount } = await countsAndRecount());
    expect(counts).toEqual(recount);
    await db.admin(`TRUNCATE ${s}.events`);
    ({ counts, recount } = await countsAndRecount());
    expect(counts).toEqual([]);
  });

  it('stays equal to a recount under concurrent creates, updates, status changes and deletes on two instances', async () => {
    const instances = [store, other];
    const ids: number[] = [];
    for (let i = 0; i < 12; i++) ids.push((await instances[i % 2]!.events.create(newEvent({ startDateUtc: at(i * 90), endDateUtc: at(i * 90 + 60) }))).id);
    // Three days only, so concurrent writers keep meeting on the same counter rows.
    const work = Array.from({ length: 120 }, (_, i) => {
      const instance = instances[i % 2]!;
      const id = ids[i % ids.length]!;
      const minutes = ((i * 37) % (3 * DAY)) - 30;
      switch (i % 6) {
        case 0:
          return instance.events.create(newEvent({ startDateUtc: at(minutes), endDateUtc: at(minutes + (i % 3) * DAY), status: STATUSES[i % 4] }));
        case 1:
          return instance.events.update(id, { status: STATUSES[(i >> 1) % 4] });
        case 2:
          return instance.events.update(id, { startDateUtc: at(minutes), endDateUtc: at(minutes + 45) });
        case 3:
          return instance.events.update(id, { hideFromListings: i % 4 === 3 });
        case 4:
          // Rows locked in id order first, as any multi-row writer must, or two such statements deadlock on `events` alone.
          return instance.sql.query(
            `UPDATE ${s}.events SET start_utc = start_utc + interval '20 hours'
              WHERE post_id IN (SELECT post_id FROM ${s}.events WHERE post_id = ANY($1::bigint[]) ORDER BY post_id FOR UPDATE)`,
            [ids.slice(0, 6)],
          );
        default:
          return instance.sql.query(
            `DELETE FROM ${s}.posts WHERE id IN (SELECT post_id FROM ${s}.events WHERE post_id <> ALL($1::bigint[]) ORDER BY post_id DESC LIMIT 1)`,
            [ids],
          );
      }
    });
    const outcomes = await Promise.allSettled(work);
    expect(outcomes.filter((o) => o.status === 'rejected')).toEqual([]);
    const { counts, recount } = await countsAndRecount();
    expect(counts).toEqual(recount);
    expect(recount.length).toBeGreaterThan(3);
  });

  it('counts 1,000 concurrent creates and moves on two instances exactly (100 on PGlite)', async () => {
    const instances = patientInstances();
    const total = db.kind === 'postgres' ? 1000 : 100;
    let created = 0;
    // Two days only: every writer meets the others on the same few counter rows.
    const outcomes = await Promise.allSettled(
      Array.from({ length: total }, async (_, i) => {
        const instance = instances[i % 2]!;
        const event = await instance.events.create(newEvent({ startDateUtc: at(i % (2 * DAY)), endDateUtc: at((i % (2 * DAY)) + 30), status: STATUSES[i % 4] }));
        created++;
        if (i % 3 === 0) await instance.events.update(event.id, { startDateUtc: at((i * 7) % (2 * DAY)), endDateUtc: at(((i * 7) % (2 * DAY)) + 90) });
      }),
    );
    // Nothing is refused, lost or counted twice.
    expect(outcomes.filter((o) => o.status === 'rejected')).toEqual([]);
    const { counts, recount } = await countsAndRecount();
    expect(counts).toEqual(recount);
    const stored = await db.admin(`SELECT count(*)::int AS n FROM ${s}.events`);
    expect(stored[0]!.n).toBe(created);
  });

  it('keeps each event\'s located flag and its counts through venue inserts, coordinate changes, deletes and truncation', async () => {
    const placed = await store.venues.create(newVenue({ title: 'Placed', geoLat: 51.5, geoLng: -0.12 }));
    const bare = await store.venues.create(newVenue({ title: 'Bare' }));
    const at0 = await store.events.create(newEvent({ startDateUtc: at(60), endDateUtc: at(120), venueIds: [placed.id] }));
    const at1 = await other.events.create(newEvent({ startDateUtc: at(DAY), endDateUtc: at(DAY + 60), venueIds: [bare.id, placed.id] }));
    const at2 = await store.events.create(newEvent({ startDateUtc: at(DAY), endDateUtc: at(DAY + 60), venueIds: [bare.id] }));
    // A venue id with no venue yet, as an import may write it.
    const ahead = await store.events.create(newEvent({ startDateUtc: at(2 * DAY), endDateUtc: at(2 * DAY + 60), venueIds: [placed.id + 1000] }));
    const flags = async () => Object.fromEntries((await db.admin(`SELECT post_id::int AS id, located FROM ${s}.events ORDER BY 1`)).map((row) => [row.id, row.located]));
    expect(await flags()).toEqual({ [at0.id]: true, [at1.id]: true, [at2.id]: false, [ahead.id]: false });
    let { counts, recount } = await countsAndRecount();
    expect(counts).toEqual(recount);

    // By hand, as another tool would: a flag written directly is recomputed; the venues' own writes move their events.
    await db.admin(`UPDATE ${s}.events SET located = true`);
    await db.admin(`UPDATE ${s}.venues SET geo_lat = NULL WHERE post_id = $1`, [placed.id]);
    await db.admin(`UPDATE ${s}.venues SET geo_lat = 1, geo_lng = 2 WHERE post_id = $1`, [bare.id]);
    expect(await flags()).toEqual({ [at0.id]: false, [at1.id]: true, [at2.id]: true, [ahead.id]: false });
    await db.admin(
      `INSERT INTO ${s}.posts (id, type, status, title, slug, post_date, post_date_gmt, post_modified, post_modified_gmt) VALUES ($1, 'tribe_venue', 'publish', 'Ahead', 'ahead', $2, $2, $2, $2)`,
      [placed.id + 1000, '2027-01-01 00:00:00'],
    );
    await db.admin(`INSERT INTO ${s}.venues (post_id, geo_lat, geo_lng) VALUES ($1, 3, 4)`, [placed.id + 1000]);
    expect((await flags())[ahead.id]).toBe(true);
    ({ counts, recount } = await countsAndRecount());
    expect(counts).toEqual(recount);

    await db.admin(`DELETE FROM ${s}.posts WHERE id = $1`, [bare.id]);
    expect(await flags()).toEqual({ [at0.id]: false, [at1.id]: false, [at2.id]: false, [ahead.id]: true });
    await store.events.update(at0.id, { venueIds: [placed.id + 1000] });
    expect((await flags())[at0.id]).toBe(true);
    await db.admin(`TRUNCATE ${s}.venues`);
    expect(Object.values(await flags())).toEqual([false, false, false, false]);
    ({ counts, recount } = await countsAndRecount());
    expect(counts).toEqual(recount);
  });

  it('keeps the located flags and counts right under concurrent venue and event writes on two instances', async () => {
    const instances = [store, other];
    const venues: number[] = [];
    for (let i = 0; i < 4; i++) venues.push((await store.venues.create(newVenue({ title: `Venue ${i}`, ...(i % 2 ? {} : { geoLat: i, geoLng: i }) }))).id);
    const events: number[] = [];
    for (let i = 0; i < 12; i++) events.push((await instances[i % 2]!.events.create(newEvent({ startDateUtc: at(i * 90), endDateUtc: at(i * 90 + 60), venueIds: [venues[i % 4]!] }))).id);
    // Four venues only, so venue writers keep meeting the writers of their events.
    const work = Array.from({ length: 120 }, (_, i) => {
      const instance = instances[i % 2]!;
      const venue = venues[i % 4]!;
      switch (i % 4) {
        case 0:
          return instance.venues.update(venue, i % 8 ? { geoLat: null } : { geoLat: i, geoLng: i });
        case 1:
          return instance.events.update(events[i % events.length]!, { venueIds: i % 3 ? [venue] : [venue, venues[(i + 1) % 4]!] });
        case 2:
          return instance.events.create(newEvent({ startDateUtc: at(i * 30), endDateUtc: at(i * 30 + 60), venueIds: [venue] }));
        default:
          return instance.venues.update(venue, { geoLat: i % 3 ? i : null, geoLng: i });
      }
    });
    const outcomes = await Promise.allSettled(work);
    expect(outcomes.filter((o) => o.status === 'rejected')).toEqual([]);
    const { counts, recount } = await countsAndRecount();
    expect(counts).toEqual(recount);
  });

  it('locks a venue without coordinates while an event names it, so coordinates given meanwhile reach the event', async () => {
    const venue = await store.venues.create(newVenue({ title: 'Bare until now' }));
    const event = await store.events.create(newEvent({ startDateUtc: at(60), endDateUtc: at(120) }));
    let commit!: () => void;
    const committing = new Promise<void>((resolve) => (commit = resolve));
    let named!: () => void;
    const venueNamed = new Promise<void>((resolve) => (named = resolve));
    // The event names the venue and holds its transaction open while another instance gives the venue coordinates.
    const naming = store.sql.transaction(async (tx) => {
      await tx.query(`UPDATE ${s}.events SET venue_ids = $1::bigint[] WHERE post_id = $2`, [[venue.id], event.id]);
      named();
      await committing;
    });
    await venueNamed;
    const placing = other.venues.update(venue.id, { geoLat: 48.85, geoLng: 2.35 });
    // Time for the coordinates to commit first, were the venue not locked.
    await new Promise((resolve) => setTimeout(resolve, 300));
    commit();
    await Promise.all([naming, placing]);
    const [row] = await db.admin(`SELECT located FROM ${s}.events WHERE post_id = $1`, [event.id]);
    expect(row!.located).toBe(true);
    const { counts, recount } = await countsAndRecount();
    expect(counts).toEqual(recount);
  });

  it('keeps the located flags and counts exact under 1,000 concurrent venue and event writes on two instances (100 on PGlite)', async () => {
    const instances = patientInstances();
    const total = db.kind === 'postgres' ? 1000 : 100;
    const venues: number[] = [];
    for (let i = 0; i < 3; i++) venues.push((await store.venues.create(newVenue({ title: `Hub ${i}`, geoLat: i, geoLng: i }))).id);
    // Three venues and two days: every writer meets the others on the same venue rows and counter rows.
    const outcomes = await Promise.allSettled(
      Array.from({ length: total }, async (_, i) => {
        const instance = instances[i % 2]!;
        const venue = venues[i % 3]!;
        if (i % 4 === 0) return instance.venues.update(venue, i % 8 ? { geoLat: null } : { geoLat: i, geoLng: i });
        const minutes = i % (2 * DAY);
        const event = await instance.events.create(newEvent({ startDateUtc: at(minutes), endDateUtc: at(minutes + 30), venueIds: [venue] }));
        // Moved on by a fifth of the writers: every venue keeps events of its own.
        if (i % 5 === 0) await instance.events.update(event.id, { venueIds: [venues[(i + 1) % 3]!] });
        return event;
      }),
    );
    expect(outcomes.filter((o) => o.status === 'rejected')).toEqual([]);
    let { counts, recount } = await countsAndRecount();
    expect(counts).toEqual(recount);
    // Then one venue's coordinates move every event there at once (some 200 of them, whatever the writes left).
    await store.venues.update(venues[0]!, { geoLat: 5, geoLng: 5 });
    ({ counts, recount } = await countsAndRecount());
    expect(counts).toEqual(recount);
    const located = await db.admin(`SELECT count(*)::int AS n FROM ${s}.events WHERE located`);
    expect(located[0]!.n).toBeGreaterThan(total / 10);
  });

  it('pages an end-bounded window through an event that ends before it starts', async () => {
    const early = await store.events.create(newEvent({ startDateUtc: at(DAY + 60), endDateUtc: at(DAY + 120) }));
    const reversed = await store.events.create(newEvent({ startDateUtc: at(5 * DAY), endDateUtc: at(60) }));
    await store.events.create(newEvent({ startDateUtc: at(4 * DAY), endDateUtc: at(4 * DAY + 60) }));
    const q: EventQuery = { statuses: ['publish'], startsAfter: at(0), endsBefore: `${at(2 * DAY).slice(0, 10)} 23:59:59`, orderBy: 'start', offset: 0, limit: 10 };
    const page = await store.events.list(q);
    expect({ total: page.total, ids: page.items.map((item) => item.id) }).toEqual({ total: 2, ids: [early.id, reversed.id] });
    expect((await store.events.list({ ...q, offset: 1, limit: 1 })).items.map((item) => item.id)).toEqual([reversed.id]);
    // A search is found through its own index: splitting its page would run the search twice.
    const tables = { sql: store.sql, t: tablesIn(schema) };
    expect(eventListSql(tables, q).page).toContain('UNION ALL');
    expect(eventListSql(tables, { ...q, search: 'jazz' }).page).not.toContain('UNION ALL');
  });

  it('plans venue, organizer and near-a-point lists for the ids and point they name, never with a generic plan', () => {
    // A prepared statement may settle on a generic plan after five runs, which cannot tell a venue's hundred events
    // from another's hundred thousand: at a million events it walked the start index (27 ms instead of 1.6; near a
    // point with one venue in range, 35 ms instead of 1.5).
    const tables = { sql: store.sql, t: tablesIn(schema) };
    const q: EventQuery = { statuses: ['publish'], endsAfter: at(0), orderBy: 'start', offset: 0, limit: 10 };
    expect(eventListSql(tables, q).prepare).toBe(true);
    expect(eventListSql(tables, { ...q, categoryIds: [3] }).prepare).toBe(true);
    expect(eventListSql(tables, { ...q, venueIds: [3] }).prepare).toBe(false);
    expect(eventListSql(tables, { ...q, organizerIds: [3] }).prepare).toBe(false);
    expect(eventListSql(tables, { ...q, geo: { near: { lat: 45, lng: 5, radiusKm: 25 } } }).prepare).toBe(false);
    // Any venue with coordinates is the events' own flag, counted by day: no ids, nothing a generic plan misjudges.
    expect(eventListSql(tables, { ...q, geo: {} }).prepare).toBe(true);
  });

  it('pages a window bounded only by the end from the first start the day counts allow, long events included', async () => {
    const long = await store.events.create(newEvent({ startDateUtc: at(-30 * DAY), endDateUtc: at(12 * 60) }));
    const short = await store.events.create(newEvent({ startDateUtc: at(DAY), endDateUtc: at(DAY + 60) }));
    await store.events.create(newEvent({ startDateUtc: at(-20 * DAY), endDateUtc: at(-20 * DAY + 60) }));
    const q: EventQuery = { statuses: ['publish'], endsAfter: at(8 * 60), endsBefore: `${at(2 * DAY).slice(0, 10)} 23:59:59`, orderBy: 'start', offset: 0, limit: 10 };
    const page = await store.events.list(q);
    expect({ total: page.total, ids: page.items.map((item) => item.id) }).toEqual({ total: 2, ids: [long.id, short.id] });
    expect((await store.events.list({ ...q, endsBefore: undefined })).items.map((item) => item.id)).toEqual([long.id, short.id]);
  });

  it('serves the totals of the API\'s own default lists (anonymous, later page, editor) from the day counts', async () => {
    const site = createSite({ store, cache: false, logger: silentLogger });
    const list = store.events.list;
    const recorded: EventQuery[] = [];
    store.events.list = async (query: EventQuery) => {
      recorded.push(query);
      return list(query);
    };
    try {
      const editor = { id: 1, login: 'editor', roles: ['editor'] };
      for (const [query, principal] of [['', undefined], ['page=3', undefined], ['status=publish,private', editor]] as const) {
        await site.handle({ method: 'GET', path: '/cal/events/v1/events', query, headers: {}, principal });
      }
    } finally {
      store.events.list = list;
    }
    expect(recorded).toHaveLength(3);
    for (const query of recorded) expect(eventListSql({ sql: store.sql, t: tablesIn(schema) }, query).count).toContain('event_day_counts');
  });

  it('gives list totals equal to a plain count(*), and pages equal to the plain ordered query, over random events and windows', async () => {
    const minute = fc.oneof(fc.integer({ min: -DAY, max: 4 * DAY }), fc.constantFrom(0, DAY, 2 * DAY, DAY - 1, 2 * DAY - 1).map((m) => m));
    const event = fc.record({
      start: eventStart(minute),
      // Some end before they start: the counts must not rely on end >= start.
      duration: fc.oneof(fc.integer({ min: 0, max: 3 * DAY }), fc.integer({ min: -3 * DAY, max: 0 })),
      status: fc.constantFrom(...STATUSES),
      hidden: fc.boolean(),
      venues: fc.constantFrom('none', 'placed', 'bare', 'both'),
    });
    const query = fc.record({
      statuses: fc.constantFrom<EventQuery['statuses']>(['publish'], ['publish', 'private'], ['draft'], 'any'),
      readable: fc.option(fc.subarray([...STATUSES], { minLength: 0 }), { nil: undefined }),
      excludeHidden: fc.boolean(),
      ...windowAndPage(minute),
      located: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(event, { maxLength: 40 }), fc.array(query, { minLength: 1, maxLength: 12 }), async (events, queries) => {
        await db.admin(`DELETE FROM ${s}.posts`);
        const placed = (await store.venues.create(newVenue({ title: 'Placed', geoLat: 1, geoLng: 2 }))).id;
        const bare = (await store.venues.create(newVenue({ title: 'Bare' }))).id;
        const venuesOf = { none: [], placed: [placed], bare: [bare], both: [bare, placed] };
        for (const e of events) {
          await store.events.create(newEvent({ ...eventTimes(e.start, e.duration), status: e.status, hideFromListings: e.hidden, venueIds: venuesOf[e.venues] }));
        }
        for (const { readable, located, ...rest } of queries) {
          const q: EventQuery = { ...rest, orderBy: 'start', ...(readable ? { visibility: { statuses: readable } } : {}), ...(located ? { geo: {} } : {}) };
          expect(eventListSql({ sql: store.sql, t: tablesIn(schema) }, q).count).toContain('event_day_counts');
          const { total, items } = await store.events.list(q);
          const [plain] = await db.admin(
            `SELECT count(*)::int AS n, COALESCE((SELECT array_agg(id ORDER BY k, id) FROM (SELECT post_id::int AS id, start_utc AS k FROM matching ORDER BY k, id LIMIT $9 OFFSET $8) page), '{}') AS ids
               FROM matching`.replace(/matching/g, `(SELECT * FROM ${s}.events e
              WHERE CASE WHEN $1::text[] IS NULL THEN status NOT IN ('trash', 'auto-draft') ELSE status = ANY($1::text[]) END
                AND ($2::text[] IS NULL OR status = ANY($2::text[]))
                AND NOT ($3::boolean AND hide_from_listings)
                AND ($4::timestamp IS NULL OR start_utc >= $4) AND ($5::timestamp IS NULL OR start_utc <= $5)
                AND ($6::timestamp IS NULL OR end_utc >= $6) AND ($7::timestamp IS NULL OR end_utc <= $7)
                AND (NOT $10::boolean OR ${HAS_LOCATED_VENUE})) m`),
            [q.statuses === 'any' ? null : q.statuses, readable ?? null, q.excludeHidden, q.startsAfter ?? null, q.startsBefore ?? null, q.endsAfter ?? null, q.endsBefore ?? null, q.offset, q.limit, located],
          );
          // The page too: a start-ordered page bounded by the end is read as two scans (pageIds in event-list.ts).
          expect({ query: q, total, ids: items.map((item) => item.id) }).toEqual({ query: q, total: plain!.n, ids: plain!.ids });
        }
      }),
      { numRuns: 60 },
    );
  });
});
