import { describe, expect, it } from 'vitest';
import type { EventQuery } from '@siterest/core';
import { useMigratedStore } from './support/database.js';
import { explainAnalyze, rowsRead, withStatements } from './support/plans.js';

/**
 * How PostgreSQL reads a page of a large calendar filtered by a venue or an organizer. Their filters are array
 * overlaps, whose selectivity the planner can only guess: guessing an organizer common, it walked the start index
 * for the first ten events and read every event of the window before the organizer's first (1M events: 18–31 ms
 * for an organizer of 158 events in the window, against 1.5 for a venue of 108 found through its own index).
 */
const migrated = useMigratedStore('event_list_plans');

const EVENTS = 20_000;
/** The events of venue 1 and organizer 1: the window's last. */
const LATE = 200;

describe('a page of events by venue or organizer', () => {
  it('finds the linked post\'s events through their own index, however late in the window they start', async () => {
    const { store, schema } = migrated;
    const s = `"${schema}"`;
    const stamp = "'2026-01-01 00:00:00'";
    // Events every hour from 2027 on, each with one of 20 venues and organizers; venue and organizer 1 only on the last 200,
    // so the planner knows them as common as the others.
    await store.sql.query(
      `WITH p AS (
         INSERT INTO ${s}.posts (id, type, status, title, post_date, post_date_gmt, post_modified, post_modified_gmt)
         SELECT 300000 + g, 'cal_events', 'publish', 'Event ' || g, ${stamp}, ${stamp}, ${stamp}, ${stamp} FROM generate_series(1, ${EVENTS}) g RETURNING id
       )
       INSERT INTO ${s}.events (post_id, status, start_local, end_local, start_utc, end_utc, timezone, venue_ids, organizer_ids)
       SELECT id, 'publish', '', '', timestamp '2027-01-01' + (id - 300000) * interval '1 hour', timestamp '2027-01-01 01:00' + (id - 300000) * interval '1 hour', 'UTC',
              ARRAY[CASE WHEN id > 300000 + ${EVENTS} - ${LATE} THEN 1 ELSE 2 + id % 20 END], ARRAY[CASE WHEN id > 300000 + ${EVENTS} - ${LATE} THEN 1 ELSE 2 + id % 20 END]
         FROM p`,
    );
    await store.sql.query(`ANALYZE ${s}.posts, ${s}.events`);

    for (const filter of [{ venueIds: [1] }, { organizerIds: [1] }]) {
      const query: EventQuery = {
        statuses: ['publish'], excludeHidden: true, startsAfter: '2027-01-01 00:00:00', endsBefore: '2030-12-31 23:59:59', orderBy: 'start', offset: 0, limit: 10, ...filter,
      };
      const { result: page, statements } = await withStatements(store, () => store.events.list(query));
      expect(page.total).toBe(LATE);
      expect(page.items.map((item) => item.id)).toEqual(Array.from({ length: 10 }, (_, i) => 300000 + EVENTS - LATE + 1 + i));

      const [text, values] = statements.find(([statement]) => /ORDER BY/.test(statement))!;
      const plan = await explainAnalyze(store, text, values);
      const eventsRead = rowsRead(plan, 'events');
      // The page and the total read the 200 events (and the page's records their 10): not the 19,800 before them.
      expect(eventsRead, JSON.stringify(plan)).toBeLessThan(3 * LATE);
    }
  });
});
