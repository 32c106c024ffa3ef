import type { Migration } from './migration.js';

/**
 * Counted searches: for a few common searches, the events matching them per (status, hidden flag, UTC day of start,
 * UTC day of end), kept exact by statement triggers on event_search as event_day_counts (migration 12) keeps all
 * events. A common word's exact total was a count of every match: at a million events "concert" (about one event in
 * ten) rechecked 27,000 rows of the window for 20,000 matches, 35 ms at the median for one list. From the counts, the
 * total is a sum over the window's rows plus the matches on its edge days, and the page's start days are known, so
 * the page reads a day or two of events (countedSearchSql in event-list.ts).
 *
 * - `event_counted_searches` names each counted search by its terms (`key`, as counted-searches.ts writes it) and
 *   holds what a row must match: `patterns`, lower-cased LIKE patterns it must all match, and `excluded`, patterns
 *   it must match none of (the same tests as eventSearchConditions in search-sql.ts). `ready` is set once the
 *   counts were filled; until then lists count the plain way. Rows are few (counted-searches.ts bounds them).
 * - `event_search_counts` holds the counts. Its rows are deltas summed into one row per key (`n = n + delta`), so
 *   the fill (counted-searches.ts) can add what it found to the deltas written meanwhile: see fillCounts there for
 *   why the sum is exact without holding up writers. No foreign key: a writer whose trigger saw a search that is
 *   dropped meanwhile writes a row that nothing reads, removed by the next fill.
 * - The trigger tests every changed row against every counted search, filling ones included: a LIKE per search per
 *   row written. With no counted search it returns at once.
 * - The window's edge days and the page's few days are read from `events` (index ranges of a day or two) with the
 *   text tested on `posts`, not from event_search: its 33 partitions cost more to plan than those reads cost to run.
 */
export const eventSearchCounts: Migration = {
  version: 68,
  name: 'event_search_counts',
  extensions: [],
  statements: [
    `CREATE TABLE event_counted_searches (
      id bigserial PRIMARY KEY,
      key text NOT NULL UNIQUE,
      patterns text[] NOT NULL,
      excluded text[] NOT NULL,
      ready boolean NOT NULL DEFAULT false,
      fill_started timestamptz NOT NULL DEFAULT now(),
      used timestamptz NOT NULL DEFAULT now()
    )`,
    `CREATE TABLE event_search_counts (
      search_id bigint NOT NULL,
      status text NOT NULL,
      hide_from_listings boolean NOT NULL,
      start_day date NOT NULL,
      end_day date NOT NULL,
      -- An integer: its sums are summed as bigints, not as numerics (a list sums a few thousand of them).
      n integer NOT NULL,
      PRIMARY KEY (search_id, status, hide_from_listings, start_day, end_day)
    )`,
    `CREATE FUNCTION event_search_counts_apply() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  -- A fresh snapshot per statement (read committed): a search committed since this statement began is counted here.
  IF NOT EXISTS (SELECT 1 FROM event_counted_searches) THEN
    RETURN NULL;
  END IF;
  IF TG_OP = 'INSERT' THEN
    INSERT INTO event_search_counts AS c (search_id, status, hide_from_listings, start_day, end_day, n)
    SELECT w.id, r.status, r.hide_from_listings, r.start_utc::date, r.end_utc::date, count(*)
      FROM new_rows r JOIN event_counted_searches w ON r.body LIKE ALL (w.patterns) AND NOT r.body LIKE ANY (w.excluded)
     GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5
    ON CONFLICT (search_id, status, hide_from_listings, start_day, end_day) DO UPDATE SET n = c.n + EXCLUDED.n;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO event_search_counts AS c (search_id, status, hide_from_listings, start_day, end_day, n)
    SELECT w.id, r.status, r.hide_from_listings, r.start_utc::date, r.end_utc::date, -count(*)
      FROM old_rows r JOIN event_counted_searches w ON r.body LIKE ALL (w.patterns) AND NOT r.body LIKE ANY (w.excluded)
     GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5
    ON CONFLICT (search_id, status, hide_from_listings, start_day, end_day) DO UPDATE SET n = c.n + EXCLUDED.n;
  ELSE
    -- Rows whose key and match did not change cancel out and write nothing.
    INSERT INTO event_search_counts AS c (search_id, status, hide_from_listings, start_day, end_day, n)
    SELECT w.id, r.status, r.hide_from_listings, r.start_day, r.end_day, sum(r.delta)
      FROM (SELECT status, hide_from_listings, start_utc::date AS start_day, end_utc::date AS end_day, body, 1 AS delta FROM new_rows
            UNION ALL
            SELECT status, hide_from_listings, start_utc::date, end_utc::date, body, -1 FROM old_rows) r
      JOIN event_counted_searches w ON r.body LIKE ALL (w.patterns) AND NOT r.body LIKE ANY (w.excluded)
     GROUP BY 1, 2, 3, 4, 5 HAVING sum(r.delta) <> 0 ORDER BY 1, 2, 3, 4, 5
    ON CONFLICT (search_id, status, hide_from_listings, start_day, end_day) DO UPDATE SET n = c.n + EXCLUDED.n;
  END IF;
  RETURN NULL;
END $$`,
    `CREATE FUNCTION event_search_counts_clear() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  DELETE FROM event_search_counts;
  RETURN NULL;
END $$`,
    `CREATE TRIGGER event_search_counts_insert AFTER INSERT ON event_search REFERENCING NEW TABLE AS new_rows
       FOR EACH STATEMENT EXECUTE FUNCTION event_search_counts_apply()`,
    `CREATE TRIGGER event_search_counts_update AFTER UPDATE ON event_search REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
       FOR EACH STATEMENT EXECUTE FUNCTION event_search_counts_apply()`,
    `CREATE TRIGGER event_search_counts_delete AFTER DELETE ON event_search REFERENCING OLD TABLE AS old_rows
       FOR EACH STATEMENT EXECUTE FUNCTION event_search_counts_apply()`,
    `CREATE TRIGGER event_search_counts_truncate AFTER TRUNCATE ON event_search FOR EACH STATEMENT EXECUTE FUNCTION event_search_counts_clear()`,
  ],
};
