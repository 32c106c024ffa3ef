import type { Migration } from './migration.js';

/** The term rows a category or tag list reads (eventFilter): an event's, under the calendar's two taxonomies, with a start and an end. */
const COUNTED_ROW = `object_type = 'cal_events' AND taxonomy IN ('cal_events_cat', 'post_tag') AND start_utc IS NOT NULL AND end_utc IS NOT NULL`;

const KEY = 'term_id, taxonomy, status, hide_from_listings, start_day, end_day';

/** Adds the grouped `rows` (SQL giving the key's columns and a signed count `n`) to the counts, in key order. */
const upsert = (rows: string) => `INSERT INTO term_day_counts AS c (${KEY}, n)
    ${rows}
    ON CONFLICT (${KEY}) DO UPDATE SET n = c.n + EXCLUDED.n`;

/** A transition table's counted rows, grouped by the counts' key, each counting `sign`. */
const grouped = (table: string, sign: '' | '-') =>
  `SELECT term_id, taxonomy, status, hide_from_listings, start_utc::date, end_utc::date, ${sign}count(*) FROM ${table}
      WHERE ${COUNTED_ROW} GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY 1, 2, 3, 4, 5, 6`;

/**
 * Counts of a category's or tag's events per (term, taxonomy, status, hidden flag, UTC day of start, UTC day of end),
 * as event_day_counts (migration 12) holds them for all events: the total of a category or tag list is then a sum over
 * the term's days in the window, plus the exact counts of its edge days (termDayCountSql in event-list.ts).
 *
 * Why: such a total counted every term row of the window. At a million events two categories read 15,292 rows of the
 * listing index and sorted them to count each event once (count DISTINCT): 12–13 ms at the median, 13–16 at the 95th
 * percentile on a two-core machine, against a goal of 10. The sum reads each term's few hundred rows of days; the
 * events in more than one of the listed terms are counted from event_search, whose index holds each event's ids
 * (migration 70) and finds the events holding two given ids by walking their two posting lists.
 *
 * - Rows counted: those a list can find (`object_type` the calendar's events, its two taxonomies) with a start and an
 *   end. A row whose event has no start (only a row written by hand before its event) is in no list with a start and
 *   an end bound, and only such lists read the counts.
 * - Kept by statement triggers on `term_relationships`, with transition tables, as event_day_counts is on `events`:
 *   a bulk write is one grouped upsert. The copies of an event's keys in its term rows (migrations 63 and 64) are
 *   updates of those rows, so an event moved to another day, or given another status, moves its counts too. A term
 *   deleted removes its rows by the foreign key's cascade, which fires the delete trigger.
 * - Concurrency: the upsert (`n = n + delta`) is atomic; rows are written in key order within a statement, and the
 *   deadlocks left (two transactions' statements crossing) are run again by the store's transaction retry. Writers
 *   of one term's events on the same days wait for each other's commit, as they already do on event_day_counts.
 * - Rows whose count falls to zero stay, as in event_day_counts.
 *
 * `term_relationships` is locked against writes while the table is filled and the triggers made, so no write falls
 * between the two.
 */
export const termDayCounts: Migration = {
  version: 71,
  name: 'term_day_counts',
  extensions: [],
  statements: [
    `LOCK TABLE term_relationships IN SHARE ROW EXCLUSIVE MODE`,
    `CREATE TABLE term_day_counts (
      term_id bigint NOT NULL,
      taxonomy text NOT NULL,
      status text NOT NULL,
      hide_from_listings boolean NOT NULL,
      start_day date NOT NULL,
      end_day date NOT NULL,
      n bigint NOT NULL,
      PRIMARY KEY (${KEY})
    )`,
    `CREATE FUNCTION term_day_counts_apply() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    ${upsert(grouped('new_rows', ''))};
  ELSIF TG_OP = 'DELETE' THEN
    ${upsert(grouped('old_rows', '-'))};
  ELSE
    -- Rows whose key did not change cancel out and write nothing.
    ${upsert(`SELECT ${KEY}, sum(delta) FROM (
      SELECT term_id, taxonomy, status, hide_from_listings, start_utc::date AS start_day, end_utc::date AS end_day, 1 AS delta FROM new_rows WHERE ${COUNTED_ROW}
      UNION ALL
      SELECT term_id, taxonomy, status, hide_from_listings, start_utc::date, end_utc::date, -1 FROM old_rows WHERE ${COUNTED_ROW}
    ) changes GROUP BY 1, 2, 3, 4, 5, 6 HAVING sum(delta) <> 0 ORDER BY 1, 2, 3, 4, 5, 6`)};
  END IF;
  RETURN NULL;
END $$`,
    `CREATE FUNCTION term_day_counts_clear() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  DELETE FROM term_day_counts;
  RETURN NULL;
END $$`,
    `CREATE TRIGGER term_day_counts_insert AFTER INSERT ON term_relationships REFERENCING NEW TABLE AS new_rows
       FOR EACH STATEMENT EXECUTE FUNCTION term_day_counts_apply()`,
    `CREATE TRIGGER term_day_counts_update AFTER UPDATE ON term_relationships REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
       FOR EACH STATEMENT EXECUTE FUNCTION term_day_counts_apply()`,
    `CREATE TRIGGER term_day_counts_delete AFTER DELETE ON term_relationships REFERENCING OLD TABLE AS old_rows
       FOR EACH STATEMENT EXECUTE FUNCTION term_day_counts_apply()`,
    `CREATE TRIGGER term_day_counts_truncate AFTER TRUNCATE ON term_relationships FOR EACH STATEMENT EXECUTE FUNCTION term_day_counts_clear()`,
    `INSERT INTO term_day_counts (${KEY}, n)
     SELECT term_id, taxonomy, status, hide_from_listings, start_utc::date, end_utc::date, count(*) FROM term_relationships
      WHERE ${COUNTED_ROW} GROUP BY 1, 2, 3, 4, 5, 6`,
    // Plans over the filled table from the first list on, before autovacuum would get to it.
    `ANALYZE term_day_counts`,
  ],
};
