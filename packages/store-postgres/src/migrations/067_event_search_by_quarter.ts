import type { Migration } from './migration.js';

/** Bucket -1 and the 32 quarters of the eight-year cycle. */
const QUARTER_BUCKETS = Array.from({ length: 33 }, (_, i) => i - 1);

/**
 * event_search (migration 14) becomes a table partitioned by its quarter bucket, one partition per bucket, each with
 * its own trigram index in place of the partial ones.
 *
 * Why: a search in a window reads the buckets of the window's quarters, but their rows lay wherever they had been
 * written, over the whole table. A common word's matches then sat one or two to a page all over it: at a million
 * events, "concert" in the API's default window (20,030 matches and 6,870 rechecked rows outside it) read 17,619 of
 * the table's 28,618 pages, more than PostgreSQL's packaged 128 MB of shared buffers keep between two searches,
 * and took 63–70 ms at the median. A partition holds its bucket's rows alone: the same search reads 7,815 pages of
 * the window's nine partitions (about 62 MB, kept in the buffers), in 19–21 ms. Each partition's scan also
 * rechecks its rows against the word alone, where the partial indexes' OR of (word and bucket) tested the word once
 * per bucket before the row's own.
 *
 * - `bucket` is the same quarter modulo 32 (-1 for an event ending before it starts or starting at ±infinity), now
 *   a plain column: PostgreSQL does not partition by a generated column. event_search_bucket() computes it, the
 *   triggers write it, and a CHECK holds every row to it, so a row is always in its start's partition.
 * - The key is (post_id, bucket), as a partitioned table's unique keys must hold the partition key; a post still
 *   has one row, as it has one `events` row, whose triggers alone write here. A change of start to another quarter
 *   moves the row to that partition (PostgreSQL's own row movement; a concurrent writer of the same row gets a
 *   serialization failure, which the store runs again).
 * - Writes that find a row by post alone (a post's text, an event deleted) probe each partition's key index,
 *   33 probes instead of one; the event triggers also give the old row's bucket, so PostgreSQL reads its partition
 *   alone.
 *
 * The rows are copied from the old table, which is then dropped, with `posts` and `events` locked against writes
 * as in migration 14: about 25 s at a million events on a two-core test machine, most of it building the indexes.
 */
export const eventSearchByQuarter: Migration = {
  version: 67,
  name: 'event_search_by_quarter',
  extensions: ['pg_trgm'],
  vacuums: ['event_search'],
  statements: [
    `LOCK TABLE posts, events IN SHARE ROW EXCLUSIVE MODE`,
    `CREATE FUNCTION event_search_bucket(start_utc timestamp, end_utc timestamp) RETURNS smallint
       LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT (CASE WHEN end_utc < start_utc OR NOT isfinite(start_utc) THEN -1
               ELSE ((extract(year FROM start_utc)::integer * 4 + (extract(month FROM start_utc)::integer - 1) / 3) % 32 + 32) % 32 END)::smallint
$$`,
    `ALTER TABLE event_search RENAME TO event_search_unpartitioned`,
    `CREATE TABLE event_search (
      post_id bigint NOT NULL,
      status text NOT NULL,
      hide_from_listings boolean NOT NULL,
      start_utc timestamp NOT NULL,
      end_utc timestamp NOT NULL,
      body text NOT NULL,
      bucket smallint NOT NULL CHECK (bucket = event_search_bucket(start_utc, end_utc)),
      PRIMARY KEY (post_id, bucket)
    ) PARTITION BY LIST (bucket)`,
    ...QUARTER_BUCKETS.map((b) => `CREATE TABLE event_search_${b < 0 ? 'other' : `q${b}`} PARTITION OF event_search FOR VALUES IN (${b})`),
    `INSERT INTO event_search (post_id, status, hide_from_listings, start_utc, end_utc, body, bucket)
     SELECT post_id, status, hide_from_listings, start_utc, end_utc, body, event_search_bucket(start_utc, end_utc)
       FROM event_search_unpartitioned`,
    `DROP TABLE event_search_unpartitioned`,
    `CREATE INDEX event_search_body ON event_search USING gin (body gin_trgm_ops) WITH (fastupdate = off)`,
    // As in migration 14, with the bucket written, and the old row's bucket given where an event row is found.
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
  INSERT INTO event_search (post_id, status, hide_from_listings, start_utc, end_utc, body, bucket)
  SELECT n.post_id, n.status, n.hide_from_listings, n.start_utc, n.end_utc, lower(p.title) || ' ' || lower(p.content) || ' ' || lower(p.excerpt),
         event_search_bucket(n.start_utc, n.end_utc)
    FROM new_rows n JOIN posts p ON p.id = n.post_id
   WHERE TG_OP = 'INSERT' OR NOT EXISTS (SELECT 1 FROM event_search s WHERE s.post_id = n.post_id)
   ORDER BY n.post_id
     FOR SHARE OF p;
  RETURN NULL;
END $$`,
    `ANALYZE event_search`,
  ],
};
