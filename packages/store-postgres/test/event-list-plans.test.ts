import { describe, expect, it } from 'vitest';
import type { EventQuery } from '@siterest/core';
import { newVenue } from '@siterest/core/testing';
import type { PostgresStore } from '../src/index.js';
import { eventListSql } from '../src/repositories/calendar/event-list.js';
import { tablesIn } from '../src/tables.js';
import { useMigratedStore } from './support/database.js';
import { explainAnalyze, nodesOf, rowsRead, withStatements, type PlanNode } from './support/plans.js';

/**
 * How PostgreSQL reads a page of a large calendar filtered by a venue, an organizer or a place. Venue and organizer
 * filters are array overlaps, whose selectivity the planner can only guess: guessing an organizer common, it walked
 * the start index for the first ten events and read every event of the window before the organizer's first (1M
 * events: 18–31 ms for an organizer of 158 events in the window, against 1.5 for a venue of 108 found through its
 * own index). Near a place, each event's venues were tested in turn: with no venue near, the page and the total
 * read every event of the window (1M events: 1.1 s).
 */
const migrated = useMigratedStore('event_list_plans');

const EVENTS = 20_000;
/** The events of venue 0 and organizer 1: the window's last. */
const LATE = 200;

describe('a page of events by venue, organizer or place', () => {
  it('finds the events through their venues and organizers, however late in the window they start', async () => {
    const { store, schema, db } = migrated;
    const s = `"${schema}"`;
    const stamp = "'2026-01-01 00:00:00'";
    // Venue 0 far from the others, which lie a degree of latitude (111 km) apart.
    const venues: number[] = [];
    for (let k = 0; k <= 20; k++) venues.push((await store.venues.create(newVenue({ title: `Venue ${k}`, geoLat: k === 0 ? 60 : 10 + k, geoLng: k === 0 ? 60 : 0 }))).id);
    // Events every hour from 2027 on, each with one of 20 venues and organizers; venue 0 and organizer 1 only on the
    // last 200, so the planner knows them as common as the others. Written by the admin connection, without the
    // store's statement timeout: 20,000 events in one statement, their triggers and index entries take about 5 s on a
    // two-core machine, and the test is about reading them.
    await db.admin(
      `WITH p AS (
         INSERT INTO ${s}.posts (id, type, status, title, post_date, post_date_gmt, post_modified, post_modified_gmt)
         SELECT 300000 + g, 'cal_events', 'publish', 'Event ' || g, ${stamp}, ${stamp}, ${stamp}, ${stamp} FROM generate_series(1, ${EVENTS}) g RETURNING id
       )
       INSERT INTO ${s}.events (post_id, status, start_local, end_local, start_utc, end_utc, timezone, venue_ids, organizer_ids)
       SELECT id, 'publish', '', '', timestamp '2027-01-01' + (id - 300000) * interval '1 hour', timestamp '2027-01-01 01:00' + (id - 300000) * interval '1 hour', 'UTC',
              ARRAY[($1::bigint[])[CASE WHEN id > 300000 + ${EVENTS} - ${LATE} THEN 1 ELSE 2 + id % 20 END]],
              ARRAY[CASE WHEN id > 300000 + ${EVENTS} - ${LATE} THEN 1 ELSE 2 + id % 20 END]
         FROM p`,
      [venues],
    );
    await store.sql.query(`ANALYZE ${s}.posts, ${s}.events, ${s}.venues`);

    const late = Array.from({ length: 10 }, (_, i) => 300000 + EVENTS - LATE + 1 + i);
    const cases: Array<[Partial<EventQuery>, number, number[]]> = [
      [{ venueIds: [venues[0]!] }, LATE, late],
      [{ organizerIds: [1] }, LATE, late],
      [{ geo: { near: { lat: 60, lng: 60, radiusKm: 25 } } }, LATE, late],
      // No venue near: nothing to find, and nothing to read either.
      [{ geo: { near: { lat: -60, lng: -120, radiusKm: 25 } } }, 0, []],
    ];
    for (const [filter, total, ids] of cases) {
      const query: EventQuery = {
        statuses: ['publish'], excludeHidden: true, startsAfter: '2027-01-01 00:00:00', endsBefore: '2030-12-31 23:59:59', orderBy: 'start', offset: 0, limit: 10, ...filter,
      };
      const { result: page, statements } = await withStatements(store, () => store.events.list(query));
      expect(page.total).toBe(total);
      expect(page.items.map((item) => item.id)).toEqual(ids);

      const [text, values] = statements.find(([statement]) => /ORDER BY/.test(statement))!;
      const plan = await explainAnalyze(store, text, values);
      const eventsRead = rowsRead(plan, 'events');
      // The page and the total read the 200 events (and the page's records their 10): not the 19,800 before them.
      expect(eventsRead, JSON.stringify(plan)).toBeLessThan(3 * LATE);
    }
  });
});

/** A bound value as an SQL literal, for EXECUTE (the values here are the test's own: text, numbers, lists of them). */
function sqlLiteral(value: unknown): string {
  if (value === null) return 'NULL';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return sqlLiteral(`{${value.map((item) => `"${String(item).replace(/["\\]/g, '\\$&')}"`).join(',')}}`);
  return `'${String(value).replace(/'/g, "''")}'`;
}

describe('a searched page', () => {
  it('is kept prepared when every word looked for has trigrams, and then its generic plan reads the trigram index', async () => {
    const { store, schema, db } = migrated;
    const s = `"${schema}"`;
    const stamp = "'2026-01-01 00:00:00'";
    // 10,000 events in one quarter, every 500th a saxophone night: one partition of event_search, large enough that
    // reading it whole costs more than its index.
    await db.admin(
      `WITH p AS (
         INSERT INTO ${s}.posts (id, type, status, title, post_date, post_date_gmt, post_modified, post_modified_gmt)
         SELECT 500000 + g, 'cal_events', 'publish', CASE WHEN g % 500 = 0 THEN 'Saxophone night ' ELSE 'Evening ' END || g, ${stamp}, ${stamp}, ${stamp}, ${stamp}
           FROM generate_series(1, 10000) g RETURNING id
       )
       INSERT INTO ${s}.events (post_id, status, start_local, end_local, start_utc, end_utc, timezone)
       SELECT id, 'publish', '', '', timestamp '2025-01-01' + (id - 500000) * interval '10 minutes', timestamp '2025-01-01 01:00' + (id - 500000) * interval '10 minutes', 'UTC' FROM p`,
    );
    await store.sql.query(`ANALYZE ${s}.posts, ${s}.events, ${s}.event_search`);
    const base: EventQuery = {
      statuses: ['publish'], excludeHidden: true, startsAfter: '2025-01-01 00:00:00', endsBefore: '2025-03-31 23:59:59', orderBy: 'start', offset: 0, limit: 10,
    };
    const tables = { sql: store.sql, t: tablesIn(schema) };
    const prepared = (search: string) => eventListSql(tables, { ...base, search }).prepare;
    const withTrigrams = ['saxophone', 'Saxophone Night', 'saxophone -rock', 'saxophone -ab', 'b2b'];
    // Words without trigrams, and phrases (tested on posts' columns too).
    const without = ['ab', 'a.b.c', 'v2.0', 'été', 'saxophone ab', '"saxophone night"', 'jazz -"late night"'];
    expect(withTrigrams.map(prepared)).toEqual(withTrigrams.map(() => true));
    expect(without.map(prepared)).toEqual(without.map(() => false));

    const q: EventQuery = { ...base, search: 'saxophone' };
    const page = await store.events.list(q);
    expect(page.total).toBe(20);
    expect(page.items.map((item) => item.title)).toEqual(Array.from({ length: 10 }, (_, i) => `Saxophone night ${500 * (i + 1)}`));
    // The plan PostgreSQL may settle on after five runs: for any words, planned without them.
    const sql = eventListSql(tables, q);
    const plan = await store.transaction(async (tx) => {
      const { sql: client } = tx as PostgresStore;
      await client.query('SET LOCAL plan_cache_mode = force_generic_plan');
      await client.query(`PREPARE siterest_generic_search AS ${sql.page}`);
      try {
        const [row] = await client.query<{ 'QUERY PLAN': unknown }>(`EXPLAIN (ANALYZE, FORMAT JSON) EXECUTE siterest_generic_search(${sql.pageParams.map(sqlLiteral).join(', ')})`);
        return (row!['QUERY PLAN'] as Array<{ Plan: PlanNode }>)[0]!.Plan;
      } finally {
        await client.query('DEALLOCATE siterest_generic_search');
      }
    });
    const partitions = nodesOf(plan).filter((node) => node['Relation Name']?.startsWith('event_search_q'));
    expect(partitions.map((node) => node['Node Type'])).toEqual(['Bitmap Heap Scan']);
    // The 20 matches, not the quarter's 10,000 rows.
    expect(partitions.reduce((sum, node) => sum + rowsRead(plan, node['Relation Name']!), 0), JSON.stringify(plan)).toBeLessThan(100);
  });
});
