import type { Migration } from './migration.js';

/**
 * Event counts per (status, hidden flag, UTC day of start, UTC day of end), kept exact by statement triggers on
 * `events`, so the total of a long date window is a sum over a few thousand small rows instead of a count over
 * hundreds of thousands of index entries (see eventCountSql in event-list.ts for how a total is assembled).
 *
 * - Statement-level triggers with transition tables: a bulk write (an import of 100,000 events) adds one grouped
 *   upsert, not one per row; a single event costs one upsert, a move two.
 * - The upsert (`n = n + delta`) is atomic in the database, so concurrent writers on any number of instances
 *   never lose an increment; writers of events on the same day wait for each other's commit on that row.
 *   Rows are written in key order, so two statements never take two rows' locks in opposite orders; the
 *   deadlocks left (two multi-statement transactions crossing) are re-run by the store's transaction retry.
 * - The end day is part of the key because the API's default window bounds the end as well as the start: events
 *   with both days strictly inside the window are then counted from this table alone.
 * - TRUNCATE of `events` fires no row or delete trigger: its own trigger empties the counts.
 * - The functions carry the schema's search_path (SET … FROM CURRENT): the store's sessions name tables with
 *   their schema and leave search_path alone.
 *
 * `events` is locked before the triggers exist and the table is filled, so no write falls between the backfill
 * and the first counted statement. The end index gains the start and hidden flag, so the exact counts of the
 * window's edge days by end are index-only too; events ending before they start get a partial index (see pageIds
 * in event-list.ts).
 */
export const eventDayCounts: Migration = {
  version: 12,
  name: 'event_day_counts',
  extensions: [],
  vacuums: ['event_day_counts'],
  statements: [
    `LOCK TABLE events IN SHARE ROW EXCLUSIVE MODE`,
    `CREATE TABLE event_day_counts (
      status text NOT NULL,
      hide_from_listings boolean NOT NULL,
      start_day date NOT NULL,
      end_day date NOT NULL,
      n bigint NOT NULL,
      PRIMARY KEY (status, hide_from_listings, start_day, end_day)
    )`,
    `CREATE FUNCTION event_day_counts_apply() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO event_day_counts AS c (status, hide_from_listings, start_day, end_day, n)
    SELECT status, hide_from_listings, start_utc::date, end_utc::date, count(*) FROM new_rows
     GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
    ON CONFLICT (status, hide_from_listings, start_day, end_day) DO UPDATE SET n = c.n + EXCLUDED.n;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO event_day_counts AS c (status, hide_from_listings, start_day, end_day, n)
    SELECT status, hide_from_listings, start_utc::date, end_utc::date, -count(*) FROM old_rows
     GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
    ON CONFLICT (status, hide_from_listings, start_day, end_day) DO UPDATE SET n = c.n + EXCLUDED.n;
  ELSE
    -- Rows whose key did not change cancel out and write nothing.
    INSERT INTO event_day_counts AS c (status, hide_from_listings, start_day, end_day, n)
    SELECT status, hide_from_listings, start_day, end_day, sum(delta) FROM (
      SELECT status, hide_from_listings, start_utc::date AS start_day, end_utc::date AS end_day, 1 AS delta FROM new_rows
      UNION ALL
      SELECT status, hide_from_listings, start_utc::date, end_utc::date, -1 FROM old_rows
    ) changes
     GROUP BY 1, 2, 3, 4 HAVING sum(delta) <> 0 ORDER BY 1, 2, 3, 4
    ON CONFLICT (status, hide_from_listings, start_day, end_day) DO UPDATE SET n = c.n + EXCLUDED.n;
  END IF;
  RETURN NULL;
END $$`,
    `CREATE FUNCTION event_day_counts_clear() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  DELETE FROM event_day_counts;
  RETURN NULL;
END $$`,
    `CREATE TRIGGER event_day_counts_insert AFTER INSERT ON events REFERENCING NEW TABLE AS new_rows
       FOR EACH STATEMENT EXECUTE FUNCTION event_day_counts_apply()`,
    `CREATE TRIGGER event_day_counts_update AFTER UPDATE ON events REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
       FOR EACH STATEMENT EXECUTE FUNCTION event_day_counts_apply()`,
    `CREATE TRIGGER event_day_counts_delete AFTER DELETE ON events REFERENCING OLD TABLE AS old_rows
       FOR EACH STATEMENT EXECUTE FUNCTION event_day_counts_apply()`,
    `CREATE TRIGGER event_day_counts_truncate AFTER TRUNCATE ON events FOR EACH STATEMENT EXECUTE FUNCTION event_day_counts_clear()`,
    `INSERT INTO event_day_counts (status, hide_from_listings, start_day, end_day, n)
     SELECT status, hide_from_listings, start_utc::date, end_utc::date, count(*) FROM events GROUP BY 1, 2, 3, 4`,
    // The start days of the events ending on given days (earliestStart in event-list.ts).
    `CREATE INDEX event_day_counts_end ON event_day_counts (end_day, start_day)`,
    // Plans over the filled table from the first list on, before autovacuum would get to it.
    `ANALYZE event_day_counts`,
    `CREATE INDEX events_status_end_keys ON events (status, end_utc, post_id) INCLUDE (start_utc, hide_from_listings)`,
    `DROP INDEX events_status_end`,
    // Events ending before they start (few, if any): a start-ordered page bounded by the end reads them from here.
    `CREATE INDEX events_ending_before_start ON events (start_utc, post_id) INCLUDE (status, end_utc, hide_from_listings) WHERE end_utc < start_utc`,
  ],
};
