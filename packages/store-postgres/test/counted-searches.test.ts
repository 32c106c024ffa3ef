import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { ZERO_DATE, type EventQuery } from '@siterest/core';
import { newEvent } from '@siterest/core/testing';
import { postgresStore, type PostgresStore } from '../src/index.js';
import { countableSearch, CountedSearches } from '../src/repositories/calendar/counted-searches.js';
import { countedSearchBounds, countedSearchBoundsSql, countedSearchOf, countedSearchPageSql, eventListSql, listEvents } from '../src/repositories/calendar/event-list.js';
import type { Db } from '../src/repositories/db.js';
import { tablesIn } from '../src/tables.js';
import { DATABASE_URL, useSharedSchema, type TestDatabase } from './support/database.js';
import { explainAnalyze, rowsRead, withStatements } from './support/plans.js';
import { at, DAY, eventStart, eventTimes, STATUSES, windowAndPage } from './support/windows.js';

/**
 * Counted searches (migration 068, counted-searches.ts): the counts equal a recount of the matching event_search rows
 * after any writes, a fill under way included; and a list read from them gives the plain list's total and page.
 */
const shared = useSharedSchema('counted', { emptiedBeforeEach: true, connectionTimeout: 60_000 });
const { schema } = shared;
const s = `"${schema}"`;
let db: TestDatabase;
let store: PostgresStore;
let other: PostgresStore;
let tables: Db;
beforeAll(() => {
  ({ db, store, other } = shared);
  tables = { sql: store.sql, t: tablesIn(schema) };
});

const WORDS = ['jazz', 'concert', 'night', 'market', 'Concerto', '50%'];

const KEY = `status, hide_from_listings AS hidden, start_day::text AS start_day, end_day::text AS end_day`;

/** The counts of the search named `key` without emptied rows, and the same grouping counted from event_search. */
async function countsAndRecount(key: string) {
  const counts = await db.admin(
    `SELECT ${KEY}, n::int AS n FROM ${s}.event_search_counts c JOIN ${s}.event_counted_searches w ON w.id = c.search_id
      WHERE w.key = $1 AND c.n <> 0 ORDER BY 1, 2, 3, 4`,
    [key],
  );
  const recount = await db.admin(
    `SELECT ${KEY}, n::int AS n FROM (
       SELECT s.status, s.hide_from_listings, s.start_utc::date AS start_day, s.end_utc::date AS end_day, count(*) AS n
         FROM ${s}.event_search s JOIN ${s}.event_counted_searches w ON s.body LIKE ALL (w.patterns) AND NOT s.body LIKE ANY (w.excluded)
        WHERE w.key = $1 GROUP BY 1, 2, 3, 4) r ORDER BY 1, 2, 3, 4`,
    [key],
  );
  return { counts, recount };
}

const concert = countableSearch('concert')!;

/** An event whose title holds `words`, starting `minutes` after the base. */
function wordyEvent(words: string, minutes: number, extra: Parameters<typeof newEvent>[0] = {}) {
  return newEvent({ title: `An evening: ${words}`, content: 'Doors at eight.', startDateUtc: at(minutes), endDateUtc: at(minutes + 90), ...extra });
}

/**
 * A transaction of `instance` that writes `event` (its trigger runs at once) and stays open until `commit()`:
 * `done` settles when it has committed.
 */
async function openWriter(instance: PostgresStore, event: ReturnType<typeof wordyEvent>): Promise<{ commit: () => void; done: Promise<unknown> }> {
  let commit!: () => void;
  const committing = new Promise<void>((resolve) => (commit = resolve));
  let written!: () => void;
  const wrote = new Promise<void>((resolve) => (written = resolve));
  const done = instance.transaction(async (tx) => {
    await tx.events.create(event);
    written();
    await committing;
  });
  await Promise.race([wrote, done]);
  return { commit, done };
}

describe('counted searches', () => {
  it('keys a search by its set of terms, and leaves phrases with a space to the plain count', () => {
    expect(countableSearch('night jazz')?.key).toBe(countableSearch('Jazz  night jazz')?.key);
    expect(countableSearch('jazz -night')?.key).not.toBe(countableSearch('jazz night')?.key);
    expect(countableSearch('"jazz night"')).toBeUndefined();
    expect(countableSearch('jazz -night')).toMatchObject({ patterns: ['%jazz%'], excluded: ['%night%'] });
    const q: EventQuery = { statuses: ['publish'], endsAfter: at(0), orderBy: 'start', offset: 0, limit: 10, search: 'jazz' };
    expect(countedSearchOf(q)?.key).toBe('+jazz');
    // Filters the counts do not hold are counted plainly.
    expect(countedSearchOf({ ...q, categoryIds: [3] })).toBeUndefined();
    expect(countedSearchOf({ ...q, geo: {} })).toBeUndefined();
    expect(countedSearchOf({ ...q, orderBy: 'date' })).toBeUndefined();
    expect(countedSearchOf({ ...q, search: undefined })).toBeUndefined();
  });

  it('equals a recount after creates, text and key updates, bulk statements, deletes and truncation', async () => {
    const a = await store.events.create(wordyEvent('jazz concert', 60));
    expect(await store.countSearch('concert')).toBe(true);
    const b = await other.events.create(wordyEvent('CONCERT hall', DAY - 30, { status: 'draft' }));
    const c = await store.events.create(wordyEvent('market', 2 * DAY, { hideFromListings: true }));
    await store.events.update(c.id, { title: 'Now a concert' });
    await store.events.update(a.id, { title: 'Only jazz' });
    await other.events.update(b.id, { startDateUtc: at(200 * DAY), endDateUtc: at(200 * DAY + 60), status: 'publish' });
    await store.events.update(c.id, { startDateUtc: ZERO_DATE, endDateUtc: ZERO_DATE });
    let { counts, recount } = await countsAndRecount(concert.key);
    expect(counts).toEqual(recount);
    expect(recount).toHaveLength(2);

    await db.admin(`UPDATE ${s}.events SET start_utc = start_utc + interval '1 day', status = 'private' WHERE start_utc > '2000-01-01'`);
    await db.admin(`UPDATE ${s}.posts SET content = content || ' concert' WHERE id = $1`, [a.id]);
    ({ counts, recount } = await countsAndRecount(concert.key));
    expect(counts).toEqual(recount);
    expect(recount).toHaveLength(3);
    await db.admin(`DELETE FROM ${s}.posts WHERE id = $1`, [b.id]);
    ({ counts, recount } = await countsAndRecount(concert.key));
    expect(counts).toEqual(recount);
    await db.admin(`TRUNCATE ${s}.events`);
    ({ counts, recount } = await countsAndRecount(concert.key));
    expect(counts).toEqual([]);
  });

  it('counts exactly when writers run during the fill, one holding its transaction open across the claim', async () => {
    for (let i = 0; i < 40; i++) await store.events.create(wordyEvent(i % 2 ? 'concert' : 'jazz', i * 97));
    // A writer whose trigger runs before the search is claimed, committing after: the fill has to wait for it.
    const early = await openWriter(other, wordyEvent('early concert', 5 * DAY));
    const filling = store.countSearch('concert');
    // Other writers go on meanwhile, on both instances, some of them moving and rewording the counted events.
    const writes = Array.from({ length: 60 }, async (_, i) => {
      const instance = i % 2 ? store : other;
      await new Promise((resolve) => setTimeout(resolve, i * 5));
      if (i % 3 === 0) return instance.events.create(wordyEvent('concert', i * 31, { status: STATUSES[i % 4] }));
      const ids = await db.admin(`SELECT post_id::int AS id FROM ${s}.events ORDER BY post_id LIMIT 1 OFFSET $1`, [i % 30]);
      if (i % 3 === 1) return instance.events.update(ids[0]!.id as number, { title: i % 2 ? 'concert again' : 'jazz again' });
      return instance.events.update(ids[0]!.id as number, { startDateUtc: at(i * 53), endDateUtc: at(i * 53 + 30) });
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    early.commit();
    const outcomes = await Promise.allSettled([early.done, ...writes]);
    expect(outcomes.filter((o) => o.status === 'rejected')).toEqual([]);
    expect(await filling).toBe(true);
    const { counts, recount } = await countsAndRecount(concert.key);
    expect(counts).toEqual(recount);
    expect(recount.length).toBeGreaterThan(10);
  });

  it('is counted in the background once a list met it common, and then read from the counts', async () => {
    for (let i = 0; i < 12; i++) await store.events.create(wordyEvent(i % 3 ? 'concert' : 'jazz', i * 200));
    const counted = new CountedSearches(tables, { minMatches: 5, fillIntervalMs: 0 });
    const q: EventQuery = { statuses: ['publish'], endsAfter: at(0), orderBy: 'start', offset: 0, limit: 3, search: 'concert' };
    const plain = await listEvents(tables, q);
    expect(plain.total).toBe(8);
    expect(await listEvents(tables, q, counted)).toEqual(plain);
    await counted.settled();
    const [row] = await db.admin(`SELECT id::int AS id, ready FROM ${s}.event_counted_searches WHERE key = $1`, [concert.key]);
    expect(row).toMatchObject({ ready: true });
    expect(counted.idOf(concert)).toBe(row!.id);
    // Read from the counts now: the list answers the same, and a rare search stays plain.
    expect(await listEvents(tables, q, counted)).toEqual(plain);
    expect(await listEvents(tables, { ...q, offset: 6 }, counted)).toEqual(await listEvents(tables, { ...q, offset: 6 }));
    const rare = countableSearch('jazz')!;
    await listEvents(tables, { ...q, search: 'jazz' }, counted);
    await counted.settled();
    expect(counted.idOf(rare)).toBeUndefined();
    // Dropped by another instance: the list reads plainly again, with the same answer.
    await db.admin(`DELETE FROM ${s}.event_counted_searches`);
    expect(await listEvents(tables, q, counted)).toEqual(plain);
  });

  it('starts at most one fill at a time and one a minute per instance, whatever is searched', async () => {
    await store.events.create(wordyEvent('concert jazz market', 60));
    let clock = 1_000_000;
    const counted = new CountedSearches(tables, { minMatches: 1 }, () => clock);
    const keys = async () => (await db.admin(`SELECT key FROM ${s}.event_counted_searches ORDER BY id`)).map((row) => row.key);
    counted.noteTotal(countableSearch('concert')!, 5);
    // While the first fill runs, and within the minute after it, other common searches are left plain.
    counted.noteTotal(countableSearch('jazz')!, 5);
    await counted.settled();
    counted.noteTotal(countableSearch('market')!, 5);
    await counted.settled();
    expect(await keys()).toEqual(['+concert']);
    clock += 60_000;
    counted.noteTotal(countableSearch('jazz')!, 0);
    await counted.settled();
    expect(await keys()).toEqual(['+concert']);
    counted.noteTotal(countableSearch('market')!, 1);
    await counted.settled();
    expect(await keys()).toEqual(['+concert', '+market']);
  });

  it('decides a hand-over on a fresh read of the ready searches: one another instance counted leaves the minute\'s fill unused', async () => {
    for (let i = 0; i < 6; i++) await store.events.create(wordyEvent('concert jazz', i * 100));
    expect(await store.countSearch('concert')).toBe(true);
    // An instance that has just started has read no ready search yet when its first common search is handed over.
    const counted = new CountedSearches(tables, { minMatches: 5 });
    counted.noteTotal(concert, 6);
    await counted.settled();
    expect(counted.idOf(concert)).toBeDefined();
    counted.noteTotal(countableSearch('jazz')!, 6);
    await counted.settled();
    const rows = await db.admin(`SELECT key, ready FROM ${s}.event_counted_searches ORDER BY id`);
    expect(rows).toEqual([
      { key: '+concert', ready: true },
      { key: '+jazz', ready: true },
    ]);
  });

  it.skipIf(!DATABASE_URL)(
    'gives a fill up when a writer stays open past the wait, reports it without the search, and lists stay plain and exact (needs a PostgreSQL server: PGlite runs one transaction at a time)',
    async () => {
      for (let i = 0; i < 6; i++) await store.events.create(wordyEvent('concert', i * 100));
      const warnings: Array<[string, Record<string, unknown> | undefined]> = [];
      const counted = new CountedSearches(tables, { minMatches: 5, writersWaitMs: 200 }, Date.now, {
        // A logger that throws, as an app's may: the fill's failure must still end quietly.
        warn: (message, details) => {
          warnings.push([message, details]);
          throw new Error('logger down');
        },
      });
      const q: EventQuery = { statuses: ['publish'], endsAfter: at(0), orderBy: 'start', offset: 0, limit: 3, search: 'concert' };
      // A writer of event_search whose transaction stays open across the claim and past the wait.
      const open = await openWriter(other, wordyEvent('late concert', 3 * DAY));
      const plain = await listEvents(tables, q);
      expect(plain.total).toBe(6);
      expect(await listEvents(tables, q, counted)).toEqual(plain);
      await counted.settled();
      expect(warnings).toEqual([[expect.stringContaining('could not be counted'), { terms: 1, error: expect.stringContaining('stayed open too long') }]]);
      expect(JSON.stringify(warnings)).not.toContain('concert');
      expect(await db.admin(`SELECT ready FROM ${s}.event_counted_searches WHERE key = $1`, [concert.key])).toEqual([{ ready: false }]);
      open.commit();
      await open.done;
      expect(counted.idOf(concert)).toBeUndefined();
      const after = await listEvents(tables, q, counted);
      expect(after).toEqual(await listEvents(tables, q));
      expect(after.total).toBe(7);
    },
  );

  it('reports a fill that failed to the logger given to postgresStore, without the search, and lists stay exact', async () => {
    // A thousand matches: a list that counts them plainly starts a fill (COUNTED_SEARCH_MIN_MATCHES).
    const stamp = "'2026-01-01 00:00:00'";
    await db.admin(
      `WITH p AS (
         INSERT INTO ${s}.posts (id, type, status, title, post_date, post_date_gmt, post_modified, post_modified_gmt)
         SELECT 700000 + g, 'cal_events', 'publish', 'A concert ' || g, ${stamp}, ${stamp}, ${stamp}, ${stamp} FROM generate_series(1, 1000) g RETURNING id
       )
       INSERT INTO ${s}.events (post_id, status, start_local, end_local, start_utc, end_utc, timezone)
       SELECT id, 'publish', '', '', timestamp '2027-03-10' + (id - 700000) * interval '1 hour', timestamp '2027-03-10 01:00' + (id - 700000) * interval '1 hour', 'UTC' FROM p`,
    );
    // The fill's counts cannot be written.
    await db.admin(`ALTER TABLE ${s}.event_search_counts ADD CONSTRAINT refuse_counts CHECK (n < 0) NOT VALID`);
    const warnings: Array<[string, Record<string, unknown> | undefined]> = [];
    const logged = postgresStore({ ...db.connection(), schema, logger: { warn: (message, details) => void warnings.push([message, details]) } });
    try {
      const q: EventQuery = { statuses: ['publish'], endsAfter: at(0), orderBy: 'start', offset: 0, limit: 3, search: 'concert' };
      const plain = await listEvents(tables, q);
      expect(plain.total).toBe(1000);
      expect(await logged.events.list(q)).toEqual(plain);
      // close() waits for the fill the list started.
      await logged.close();
      expect(warnings).toEqual([[expect.stringContaining('could not be counted'), { terms: 1, error: expect.stringContaining('refuse_counts') }]]);
      expect(JSON.stringify(warnings)).not.toContain('concert');
      expect(await db.admin(`SELECT ready FROM ${s}.event_counted_searches WHERE key = $1`, [concert.key])).toEqual([{ ready: false }]);
      expect(await store.events.list(q)).toEqual(plain);
    } finally {
      await logged.close();
      await db.admin(`ALTER TABLE ${s}.event_search_counts DROP CONSTRAINT refuse_counts`);
    }
  });

  it('drops the searches used longest ago beyond sixteen, with their counts', async () => {
    await store.events.create(wordyEvent('w0 w1 w2 w3 w4 w5 w6 w7 w8 w9 w10 w11 w12 w13 w14 w15 w16', 60));
    const counted = new CountedSearches(tables);
    for (let i = 0; i <= 15; i++) expect(await counted.count(countableSearch(`w${i}`)!)).toBe(true);
    // A list reads w0's counts: its use moves it on, and w1, used longest ago now, is dropped for w16.
    await new Promise((resolve) => setTimeout(resolve, 20));
    counted.used(counted.idOf(countableSearch('w0')!)!);
    await counted.settled();
    expect(await counted.count(countableSearch('w16')!)).toBe(true);
    const kept = await db.admin(`SELECT key FROM ${s}.event_counted_searches ORDER BY id`);
    expect(kept).toHaveLength(16);
    expect(kept.map((row) => row.key)).toContain('+w0');
    expect(kept.map((row) => row.key)).not.toContain('+w1');
    const orphans = await db.admin(
      `SELECT count(*)::int AS n FROM ${s}.event_search_counts c WHERE NOT EXISTS (SELECT 1 FROM ${s}.event_counted_searches w WHERE w.id = c.search_id)`,
    );
    expect(orphans[0]!.n).toBe(0);
    expect(await store.countSearch('"w1 w2"')).toBe(false);
  });

  it('reads the API\'s whole-day window from the counts, with no day of events read whole, and its page from a few events', async () => {
    for (let i = 0; i < 200; i++) await store.events.create(wordyEvent(i % 2 ? 'concert' : 'jazz', i * 7));
    await store.countSearch('concert');
    const counted = new CountedSearches(tables);
    await counted.count(concert);
    const q: EventQuery = {
      statuses: ['publish'], excludeHidden: true, search: 'concert', orderBy: 'start', offset: 0, limit: 10,
      startsAfter: at(0), endsBefore: `${at(30 * DAY).slice(0, 10)} 23:59:59`,
    };
    const bounds = countedSearchBoundsSql(tables, q, counted.idOf(concert)!, concert.key);
    const boundsPlan = await explainAnalyze(store, bounds.text, bounds.params);
    // The window's first day is taken in whole from the counts, its last too but for its last second's instants.
    expect(rowsRead(boundsPlan, 'events') + rowsRead(boundsPlan, 'posts') + rowsRead(boundsPlan, 'event_search')).toBe(0);
    const page = countedSearchPageSql(tables, q, countedSearchBounds((await store.sql.query(bounds.text, bounds.params))[0]!));
    const pagePlan = await explainAnalyze(store, page.text, page.params);
    expect(rowsRead(pagePlan, 'events') + rowsRead(pagePlan, 'event_search')).toBeLessThan(50);
    // The plain list rechecks every match.
    const plain = eventListSql(tables, q);
    const plainPlan = await explainAnalyze(store, plain.page, plain.pageParams);
    // The events start on 2027-03-10, in the partition of quarter (2027 × 4) modulo 32.
    expect(rowsRead(plainPlan, `event_search_q${(2027 * 4) % 32}`)).toBeGreaterThanOrEqual(100);
    expect(await listEvents(tables, q, counted)).toEqual(await listEvents(tables, q));
  });

  it('counts a window exactly whatever the time of day of its bounds, with and without a search', async () => {
    // Every 45 minutes over three days, two in three with the word; one in five lasting into the next day.
    const events: Array<{ start: string; end: string; word: boolean }> = [];
    for (let i = 0; i < 96; i++) {
      const event = { start: at(i * 45), end: at(i * 45 + (i % 5 ? 50 : DAY + 50)), word: i % 3 !== 0 };
      events.push(event);
      await store.events.create(wordyEvent(event.word ? 'concert' : 'jazz', 0, { startDateUtc: event.start, endDateUtc: event.end }));
    }
    const counted = new CountedSearches(tables);
    await counted.count(concert);
    const times = ['00:00:00', '00:00:01', '06:10:00', '11:59:59', '12:00:01', '17:15:00', '23:59:58', '23:59:59'];
    const fields = ['startsAfter', 'startsBefore', 'endsAfter', 'endsBefore'] as const;
    const meets = (event: { start: string; end: string }, q: EventQuery) =>
      (q.startsAfter === undefined || event.start >= q.startsAfter) &&
      (q.startsBefore === undefined || event.start <= q.startsBefore) &&
      (q.endsAfter === undefined || event.end >= q.endsAfter) &&
      (q.endsBefore === undefined || event.end <= q.endsBefore);
    for (const time of times) {
      for (const [i, field] of fields.entries()) {
        // The bound alone, and with the opposite bound of the other instant a day on.
        const other = fields[(i + 2) % 4]!;
        for (const q of [
          { [field]: `${at(DAY).slice(0, 10)} ${time}` },
          { [field]: `${at(DAY).slice(0, 10)} ${time}`, [other]: `${at(i < 2 ? 2 * DAY : 0).slice(0, 10)} ${time}` },
        ] as Array<Partial<EventQuery>>) {
          const query: EventQuery = { statuses: ['publish'], orderBy: 'start', offset: 0, limit: 100, ...q };
          const all = events.filter((event) => meets(event, query));
          expect({ query, total: (await listEvents(tables, query)).total }).toEqual({ query, total: all.length });
          const searched = { ...query, search: 'concert' };
          const fromCounts = await listEvents(tables, searched, counted);
          expect({ query, total: fromCounts.total }).toEqual({ query, total: all.filter((event) => event.word).length });
          expect(fromCounts).toEqual(await listEvents(tables, searched));
        }
      }
    }
  });

  it('gives totals and pages equal to the plain list over random events, searches and windows', async () => {
    const minute = fc.integer({ min: -DAY, max: 4 * DAY });
    const event = fc.record({
      start: eventStart(minute),
      duration: fc.oneof(fc.integer({ min: 0, max: 3 * DAY }), fc.integer({ min: -DAY, max: 0 })),
      status: fc.constantFrom(...STATUSES),
      hidden: fc.boolean(),
      words: fc.subarray(WORDS),
    });
    const query = fc.record({
      statuses: fc.constantFrom<EventQuery['statuses']>(['publish'], ['publish', 'private'], 'any'),
      excludeHidden: fc.boolean(),
      ...windowAndPage(minute),
    });
    const searches = ['concert', 'jazz -night', 'concert jazz', 'Concert', '50%', '-market'];
    const counted = new CountedSearches(tables);
    await fc.assert(
      fc.asyncProperty(fc.array(event, { maxLength: 30 }), fc.array(query, { minLength: 1, maxLength: 8 }), async (events, queries) => {
        await db.admin(`DELETE FROM ${s}.posts`);
        for (const e of events) {
          await store.events.create(newEvent({ title: e.words.join(' '), ...eventTimes(e.start, e.duration), status: e.status, hideFromListings: e.hidden }));
        }
        for (const search of searches) await counted.count(countableSearch(search)!);
        for (const [i, rest] of queries.entries()) {
          const q: EventQuery = { ...rest, orderBy: 'start', search: searches[i % searches.length] };
          expect(counted.idOf(countedSearchOf(q)!)).toBeDefined();
          // Every statement of the list read from the counts, none plainly.
          const { result: fromCounts, statements } = await withStatements(store, () => listEvents(tables, q, counted));
          expect(statements.some(([text]) => text.includes('event_search_counts'))).toBe(true);
          expect(statements.some(([text]) => text.includes('WITH found'))).toBe(false);
          const plain = await listEvents(tables, q);
          expect({ query: q, total: fromCounts.total, ids: fromCounts.items.map((item) => item.id) }).toEqual({
            query: q,
            total: plain.total,
            ids: plain.items.map((item) => item.id),
          });
          expect(fromCounts).toEqual(plain);
          // Each of the page's two reads on its own (the list picks one by cost).
          const search = countedSearchOf(q)!;
          const statement = countedSearchBoundsSql(tables, q, counted.idOf(search)!, search.key);
          const bounds = countedSearchBounds((await tables.sql.query(statement.text, statement.params))[0]!);
          if (bounds.firstDay === null) continue;
          for (const via of ['events', 'search'] as const) {
            const page = countedSearchPageSql(tables, q, bounds, via);
            const ids = (await tables.sql.query(page.text, page.params)).map((row) => Number(row.id));
            expect({ query: q, via, ids }).toEqual({ query: q, via, ids: plain.items.map((item) => item.id) });
          }
        }
      }),
      { numRuns: 40 },
    );
    // The plain list of a search never reads the counts: the comparison above compares two different readings.
    expect(eventListSql(tables, { statuses: ['publish'], orderBy: 'start', offset: 0, limit: 3, search: 'concert' }).page).not.toContain('event_search_counts');
  });
});
