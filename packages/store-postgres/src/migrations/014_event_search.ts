import type { Migration } from './migration.js';

/**
 * One narrow row per event for search: the list keys `events` has (status, hidden flag, start, end) next to the
 * event's searched text, lower-cased column by column and joined with spaces, with its own trigram index. A search
 * over `posts` found its candidates in the joined-text index (migration 011), then read each candidate's wide post
 * row to recheck four ILIKEs and its `events` row for the window: a common pair of words ("jazz night", 0.7% of a
 * million events) cost 7,000 post rows and 7,000 event lookups, twice (page and total). Here a candidate is one
 * small row that holds both the text (a plain LIKE on text lower-cased once) and the keys.
 *
 * - `body` is lower(title) || ' ' || lower(content) || ' ' || lower(excerpt). PostgreSQL's ILIKE in a multibyte
 *   database is lower(text) LIKE lower(pattern), so `body LIKE lower(pattern)` is exactly "in one of the three"
 *   for a term without a space (a match cannot span a joining space); a term with a space is also tested against
 *   the columns (eventSearchConditions in search-sql.ts).
 * - Kept by statement-level triggers with transition tables, like event_day_counts: an import of many events is
 *   one INSERT … SELECT, not one per row. `events` writes the keys, `posts` the text; each trigger updates only its
 *   own columns, so writers of the same event meet on the row's lock and neither undoes the other.
 * - An event row is written with its post in one transaction; the insert trigger reads the post FOR SHARE all the
 *   same, so a concurrent update of the post's text either commits first (and is read) or waits for the insert (and
 *   then finds the row to update).
 * - TRUNCATE of `events` fires no delete trigger: its own trigger empties the table. No foreign key, so that
 *   TRUNCATE of `events` alone stays possible.
 * - The trigram index is split by start: one partial index per `bucket`, the quarter of the start modulo 32 (an
 *   eight-year cycle), and bucket -1 for events that end before they start or start at ±infinity. A search in a
 *   date window reads only the indexes of the window's quarters (searchBuckets in event-list.ts), so the common
 *   words' long posting lists are read for those events alone: the API's default window (two years) reads 9 of
 *   32, and "jazz night" rechecks some 2,000 rows instead of 7,000. An event ending before it starts can meet an
 *   end bound with a start past it: bucket -1 is read by every search. A window of eight years or more, or one
 *   open at the start, reads all 33 indexes.
 * - The indexes are built with fastupdate off: writes go straight into the index instead of a pending list that
 *   every search would scan until the next vacuum.
 *
 * `posts` and `events` are locked before the triggers exist and the table is filled, so no write falls between the
 * backfill and the first maintained statement. Reads go on meanwhile; writes wait: at a million events the
 * backfill and the 33 index builds took about 30 s on a two-core test machine (the table about 220 MB, its
 * indexes about 260 MB). A bulk import is best loaded with event_search's trigram indexes dropped and rebuilt after,
 * as for the other big tables.
 */
export const eventSearch: Migration = {
  version: 14,
  name: 'event_search',
  extensions: ['pg_trgm'],
  vacuums: ['event_search'],
  statements: [
    `LOCK TABLE posts, events IN SHARE ROW EXCLUSIVE MODE`,
    `CREATE TABLE event_search (
      post_id bigint PRIMARY KEY,
      status text NOT NULL,
      hide_from_listings boolean NOT NULL,
      start_utc timestamp NOT NULL,
      end_utc timestamp NOT NULL,
      body text NOT NULL,
      bucket smallint NOT NULL GENERATED ALWAYS AS (
        CASE WHEN end_utc < start_utc OR NOT isfinite(start_utc) THEN -1
             ELSE ((extract(year FROM start_utc)::integer * 4 + (extract(month FROM start_utc)::integer - 1) / 3) % 32 + 32) % 32 END
      ) STORED
    )`,
    `CREATE FUNCTION event_search_events() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    DELETE FROM event_search s USING old_rows o WHERE s.post_id = o.post_id;
    RETURN NULL;
  END IF;
  IF TG_OP = 'UPDATE' THEN
    -- An event row that took another post's id (never done by the store) leaves its old row.
    DELETE FROM event_search s USING old_rows o
     WHERE s.post_id = o.post_id AND NOT EXISTS (SELECT 1 FROM new_rows n WHERE n.post_id = o.post_id);
    UPDATE event_search s
       SET status = n.status, hide_from_listings = n.hide_from_listings, start_utc = n.start_utc, end_utc = n.end_utc
      FROM new_rows n
     WHERE s.post_id = n.post_id
       AND (s.status, s.hide_from_listings, s.start_utc, s.end_utc) IS DISTINCT FROM (n.status, n.hide_from_listings, n.start_utc, n.end_utc);
  END IF;
  INSERT INTO event_search (post_id, status, hide_from_listings, start_utc, end_utc, body)
  SELECT n.post_id, n.status, n.hide_from_listings, n.start_utc, n.end_utc, lower(p.title) || ' ' || lower(p.content) || ' ' || lower(p.excerpt)
    FROM new_rows n JOIN posts p ON p.id = n.post_id
   WHERE TG_OP = 'INSERT' OR NOT EXISTS (SELECT 1 FROM event_search s WHERE s.post_id = n.post_id)
   ORDER BY n.post_id
     FOR SHARE OF p;
  RETURN NULL;
END $$`,
    `CREATE FUNCTION event_search_posts() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  UPDATE event_search s SET body = lower(n.title) || ' ' || lower(n.content) || ' ' || lower(n.excerpt)
    FROM new_rows n JOIN old_rows o ON o.id = n.id
   WHERE s.post_id = n.id AND (n.title, n.content, n.excerpt) IS DISTINCT FROM (o.title, o.content, o.excerpt);
  RETURN NULL;
END $$`,
    `CREATE FUNCTION event_search_clear() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  DELETE FROM event_search;
  RETURN NULL;
END $$`,
    `CREATE TRIGGER event_search_insert AFTER INSERT ON events REFERENCING NEW TABLE AS new_rows
       FOR EACH STATEMENT EXECUTE FUNCTION event_search_events()`,
    `CREATE TRIGGER event_search_update AFTER UPDATE ON events REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
       FOR EACH STATEMENT EXECUTE FUNCTION event_search_events()`,
    `CREATE TRIGGER event_search_delete AFTER DELETE ON events REFERENCING OLD TABLE AS old_rows
       FOR EACH STATEMENT EXECUTE FUNCTION event_search_events()`,
    `CREATE TRIGGER event_search_truncate AFTER TRUNCATE ON events FOR EACH STATEMENT EXECUTE FUNCTION event_search_clear()`,
    `CREATE TRIGGER event_search_text AFTER UPDATE ON posts REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
       FOR EACH STATEMENT EXECUTE FUNCTION event_search_posts()`,
    `INSERT INTO event_search (post_id, status, hide_from_listings, start_utc, end_utc, body)
     SELECT e.post_id, e.status, e.hide_from_listings, e.start_utc, e.end_utc, lower(p.title) || ' ' || lower(p.content) || ' ' || lower(p.excerpt)
       FROM events e JOIN posts p ON p.id = e.post_id`,
    // Literal bucket numbers in the predicates, as the searches write them (the planner matches a partial index only so).
    `DO $$
BEGIN
  FOR b IN -1..31 LOOP
    EXECUTE format('CREATE INDEX %I ON event_search USING gin (body gin_trgm_ops) WITH (fastupdate = off) WHERE bucket = %s',
                   'event_search_body_' || CASE WHEN b < 0 THEN 'other' ELSE b::text END, b);
  END LOOP;
END $$`,
    `ANALYZE event_search`,
  ],
};
