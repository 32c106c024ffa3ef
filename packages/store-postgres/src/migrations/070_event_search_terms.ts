import type { Migration } from './migration.js';

/** Bucket -1 and the 32 quarters of the eight-year cycle, as in migration 67. */
const QUARTER_BUCKETS = Array.from({ length: 33 }, (_, i) => i - 1);

/**
 * An event's category and tag ids, in id order, as the lists hold them: read from its term rows (`post`, the SQL of its
 * post id).
 */
const termIdsOf = (post: string) =>
  ['cal_events_cat', 'post_tag']
    .map((taxonomy) => `ARRAY(SELECT r.term_id FROM term_relationships r WHERE r.object_id = ${post} AND r.taxonomy = '${taxonomy}' ORDER BY r.term_id)`)
    .join(',\n         ');

/** The counts of migration 68, kept by triggers on event_search: made again on the new table once its rows are in. */
const COUNT_TRIGGERS = [
  `CREATE TRIGGER event_search_counts_insert AFTER INSERT ON event_search REFERENCING NEW TABLE AS new_rows
     FOR EACH STATEMENT EXECUTE FUNCTION event_search_counts_apply()`,
  `CREATE TRIGGER event_search_counts_update AFTER UPDATE ON event_search REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
     FOR EACH STATEMENT EXECUTE FUNCTION event_search_counts_apply()`,
  `CREATE TRIGGER event_search_counts_delete AFTER DELETE ON event_search REFERENCING OLD TABLE AS old_rows
     FOR EACH STATEMENT EXECUTE FUNCTION event_search_counts_apply()`,
  `CREATE TRIGGER event_search_counts_truncate AFTER TRUNCATE ON event_search FOR EACH STATEMENT EXECUTE FUNCTION event_search_counts_clear()`,
];

/**
 * event_search (migrations 14 and 67) gains each event's category and tag ids, `category_ids` and `tag_ids`, and its
 * trigram index becomes one GIN index over the text and both lists, so a search within categories or tags is one
 * index scan per quarter that finds the events matching both.
 *
 * Why: a search with a category was the search's every match in the window joined to the category's rows. At a million
 * events, "concert" in one category read 26,916 matches from 7,815 pages for 668 events: 49 ms at the median,
 * 63 at the 95th percentile. From a GIN index over both, PostgreSQL walks the category's short posting list and the
 * word's trigrams together and rechecks only the rows holding both (about a hundred per quarter). A GIN index over
 * the lists alone beside the trigram one (PostgreSQL ANDs the two bitmaps) read the word's every match in the index
 * still, twice the time of the index over both (one quarter: 1.5–1.9 ms against 0.8–1.0).
 *
 * - The lists hold the ids of the event's `term_relationships` rows under the calendar's category and tag taxonomies,
 *   in id order.
 * - Triggers on `term_relationships` (statement-level, with transition tables, as in migrations 63 and 64) read the
 *   lists again for the events whose rows were added, removed or given another term, taxonomy or object, and write
 *   those that differ; an update of the copied list keys alone (migration 63) changes no list and reads nothing.
 *   TRUNCATE empties every list.
 * - Rows removed because their term was deleted leave its id in the lists. Taking it out would rewrite the row of
 *   every event in the term, and its entries in the index: a category of 33,022 events at a million took 35.6 s to
 *   delete, against 0.57 s without. Lists only ask for ids of terms that exist (eventFilter), and a term created or
 *   given an id still in some lists has those lists read again (event_search_term_ids).
 * - Concurrency: the trigger reads the term rows in a statement of its own, after it has locked the events'
 *   posts (FOR NO KEY UPDATE, as siterest's event writes lock them first): two writers of one event's terms take
 *   turns, and the second reads the first's rows once committed. The insert of an event's row (event_search_events)
 *   first locks its post FOR SHARE, then reads the lists with the row in a statement of its own: a term row added
 *   beside it by another transaction is either committed by then or its trigger finds the new row and writes it.
 * - Writes: a change of an event's terms rewrites its event_search row, and with it the row's entries in the index
 *   (its text's trigrams too): 0.3–0.6 ms per event when 100 events' lists were updated in one quarter's 30,000 rows.
 *   It also fires migration 68's count trigger, whose old and new rows (same key, same text) cancel out.
 *
 * The table is made again with the lists filled, as migration 67 made it: its rows are copied aside, the table dropped
 * and created with the new columns, the rows put back, then the index built and migration 68's count triggers
 * created again (after the rows are back, so they are not counted twice). `posts`, `events` and `term_relationships`
 * are locked against writes meanwhile: about 75 s at a million events on a two-core machine. Filling the lists by an
 * UPDATE of every row instead rewrote each row's trigram entries as well: about 8 minutes.
 */
export const eventSearchTerms: Migration = {
  version: 70,
  name: 'event_search_terms',
  extensions: ['pg_trgm'],
  vacuums: ['event_search'],
  statements: [
    `LOCK TABLE posts, events, term_relationships IN SHARE ROW EXCLUSIVE MODE`,
    `CREATE TEMPORARY TABLE event_search_copy ON COMMIT DROP AS
     SELECT s.post_id, s.status, s.hide_from_listings, s.start_utc, s.end_utc, s.body, s.bucket,
            COALESCE(t.category_ids, '{}') AS category_ids, COALESCE(t.tag_ids, '{}') AS tag_ids
       FROM event_search s
       LEFT JOIN (SELECT r.object_id,
                         array_agg(r.term_id ORDER BY r.term_id) FILTER (WHERE r.taxonomy = 'cal_events_cat') AS category_ids,
                         array_agg(r.term_id ORDER BY r.term_id) FILTER (WHERE r.taxonomy = 'post_tag') AS tag_ids
                    FROM term_relationships r
                   WHERE r.taxonomy IN ('cal_events_cat', 'post_tag')
                   GROUP BY r.object_id) t ON t.object_id = s.post_id`,
    `DROP TABLE event_search`,
    `CREATE TABLE event_search (
      post_id bigint NOT NULL,
      status text NOT NULL,
      hide_from_listings boolean NOT NULL,
      start_utc timestamp NOT NULL,
      end_utc timestamp NOT NULL,
      body text NOT NULL,
      bucket smallint NOT NULL CHECK (bucket = event_search_bucket(start_utc, end_utc)),
      category_ids bigint[] NOT NULL DEFAULT '{}',
      tag_ids bigint[] NOT NULL DEFAULT '{}',
      PRIMARY KEY (post_id, bucket)
    ) PARTITION BY LIST (bucket)`,
    ...QUARTER_BUCKETS.map((b) => `CREATE TABLE event_search_${b < 0 ? 'other' : `q${b}`} PARTITION OF event_search FOR VALUES IN (${b})`),
    `INSERT INTO event_search (post_id, status, hide_from_listings, start_utc, end_utc, body, bucket, category_ids, tag_ids)
     SELECT post_id, status, hide_from_listings, start_utc, end_utc, body, bucket, category_ids, tag_ids FROM event_search_copy`,
    `CREATE INDEX event_search_match ON event_search USING gin (body gin_trgm_ops, category_ids, tag_ids) WITH (fastupdate = off)`,
    ...COUNT_TRIGGERS,
    // The lists of the events `ids`, read again and written where they differ. The posts are locked first, by a
    // statement of their own: the UPDATE's snapshot is taken after them and sees the rows of a writer it waited for.
    `CREATE FUNCTION event_search_refresh_terms(ids bigint[]) RETURNS void LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  PERFORM 1 FROM posts p WHERE p.id = ANY (ids) ORDER BY p.id FOR NO KEY UPDATE OF p;
  UPDATE event_search s
     SET category_ids = t.category_ids, tag_ids = t.tag_ids
    FROM (SELECT e.post_id, event_search_bucket(e.start_utc, e.end_utc) AS bucket, lists.*
            FROM events e, LATERAL (SELECT ${termIdsOf('e.post_id')}) AS lists(category_ids, tag_ids)
           WHERE e.post_id = ANY (ids)) t
   WHERE s.post_id = t.post_id AND s.bucket = t.bucket
     AND (s.category_ids, s.tag_ids) IS DISTINCT FROM (t.category_ids, t.tag_ids);
END $$`,
    `CREATE FUNCTION event_search_terms() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
  ids bigint[];
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    UPDATE event_search SET category_ids = '{}', tag_ids = '{}' WHERE category_ids <> '{}' OR tag_ids <> '{}';
    RETURN NULL;
  END IF;
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(DISTINCT n.object_id) INTO ids FROM new_rows n WHERE n.taxonomy IN ('cal_events_cat', 'post_tag');
  ELSIF TG_OP = 'DELETE' THEN
    -- Rows removed with their term (its deletion cascading) leave its id in the lists: the id of no term, which lists
    -- never ask for (eventFilter), and which a term given it again clears (event_search_term_ids).
    SELECT array_agg(DISTINCT o.object_id) INTO ids FROM old_rows o
     WHERE o.taxonomy IN ('cal_events_cat', 'post_tag') AND EXISTS (SELECT 1 FROM terms t WHERE t.id = o.term_id);
  ELSE
    -- The rows whose object, taxonomy or term changed: those of one side the other side lacks.
    SELECT array_agg(DISTINCT c.object_id) INTO ids
      FROM ((SELECT object_id, taxonomy, term_id FROM new_rows EXCEPT ALL SELECT object_id, taxonomy, term_id FROM old_rows)
            UNION ALL
            (SELECT object_id, taxonomy, term_id FROM old_rows EXCEPT ALL SELECT object_id, taxonomy, term_id FROM new_rows)) c
     WHERE c.taxonomy IN ('cal_events_cat', 'post_tag');
  END IF;
  IF ids IS NOT NULL THEN
    PERFORM event_search_refresh_terms(ids);
  END IF;
  RETURN NULL;
END $$`,
    // A term created, or given another id, with the id of a deleted term still in some lists: those lists are read
    // again. Other updates of terms (their counts change with every event written) find no new id and read nothing.
    `CREATE FUNCTION event_search_term_ids() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
  term_ids bigint[];
  ids bigint[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(n.id) INTO term_ids FROM new_rows n;
  ELSE
    SELECT array_agg(n.id) INTO term_ids FROM new_rows n WHERE NOT EXISTS (SELECT 1 FROM old_rows o WHERE o.id = n.id);
  END IF;
  IF term_ids IS NULL THEN
    RETURN NULL;
  END IF;
  SELECT array_agg(s.post_id) INTO ids FROM event_search s WHERE s.category_ids && term_ids OR s.tag_ids && term_ids;
  IF ids IS NOT NULL THEN
    PERFORM event_search_refresh_terms(ids);
  END IF;
  RETURN NULL;
END $$`,
    `CREATE TRIGGER event_search_term_ids_insert AFTER INSERT ON terms REFERENCING NEW TABLE AS new_rows
       FOR EACH STATEMENT EXECUTE FUNCTION event_search_term_ids()`,
    `CREATE TRIGGER event_search_term_ids_update AFTER UPDATE ON terms REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
       FOR EACH STATEMENT EXECUTE FUNCTION event_search_term_ids()`,
    `CREATE TRIGGER event_search_terms_insert AFTER INSERT ON term_relationships REFERENCING NEW TABLE AS new_rows
       FOR EACH STATEMENT EXECUTE FUNCTION event_search_terms()`,
    `CREATE TRIGGER event_search_terms_update AFTER UPDATE ON term_relationships REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
       FOR EACH STATEMENT EXECUTE FUNCTION event_search_terms()`,
    `CREATE TRIGGER event_search_terms_delete AFTER DELETE ON term_relationships REFERENCING OLD TABLE AS old_rows
       FOR EACH STATEMENT EXECUTE FUNCTION event_search_terms()`,
    `CREATE TRIGGER event_search_terms_truncate AFTER TRUNCATE ON term_relationships FOR EACH STATEMENT EXECUTE FUNCTION event_search_terms()`,
    // As in migration 67, with the lists. The posts of the rows to insert are locked first, by a statement of their
    // own: the insert then reads the term rows in a snapshot taken after any writer of them that held a post has
    // committed (event_search_terms locks the posts too).
    `CREATE OR REPLACE FUNCTION event_search_events() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    DELETE FROM event_search s USING old_rows o
     WHERE s.post_id = o.post_id AND s.bucket = event_search_bucket(o.start_utc, o.end_utc);
    RETURN NULL;
  END IF;
  IF TG_OP = 'UPDATE' THEN
    -- An event row that took another post's id (never done by the store) leaves its old row.
    DELETE FROM event_search s USING old_rows o
     WHERE s.post_id = o.post_id AND s.bucket = event_search_bucket(o.start_utc, o.end_utc)
       AND NOT EXISTS (SELECT 1 FROM new_rows n WHERE n.post_id = o.post_id);
    UPDATE event_search s
       SET status = n.status, hide_from_listings = n.hide_from_listings, start_utc = n.start_utc, end_utc = n.end_utc,
           bucket = event_search_bucket(n.start_utc, n.end_utc)
      FROM new_rows n JOIN old_rows o ON o.post_id = n.post_id
     WHERE s.post_id = n.post_id AND s.bucket = event_search_bucket(o.start_utc, o.end_utc)
       AND (s.status, s.hide_from_listings, s.start_utc, s.end_utc) IS DISTINCT FROM (n.status, n.hide_from_listings, n.start_utc, n.end_utc);
  END IF;
  PERFORM 1 FROM new_rows n JOIN posts p ON p.id = n.post_id
   WHERE TG_OP = 'INSERT' OR NOT EXISTS (SELECT 1 FROM event_search s WHERE s.post_id = n.post_id)
   ORDER BY n.post_id
     FOR SHARE OF p;
  INSERT INTO event_search (post_id, status, hide_from_listings, start_utc, end_utc, body, bucket, category_ids, tag_ids)
  SELECT n.post_id, n.status, n.hide_from_listings, n.start_utc, n.end_utc, lower(p.title) || ' ' || lower(p.content) || ' ' || lower(p.excerpt),
         event_search_bucket(n.start_utc, n.end_utc),
         ${termIdsOf('n.post_id')}
    FROM new_rows n JOIN posts p ON p.id = n.post_id
   WHERE TG_OP = 'INSERT' OR NOT EXISTS (SELECT 1 FROM event_search s WHERE s.post_id = n.post_id)
   ORDER BY n.post_id
     FOR SHARE OF p;
  RETURN NULL;
END $$`,
    `ANALYZE event_search`,
  ],
};
