import type { Migration } from './migration.js';

/**
 * A row added to `term_relationships` takes its event's list keys from `events` and `posts`, whoever inserts it.
 *
 * Since migration 63, triggers keep the copies of an event's type, status, start, end and hidden flag in its
 * `term_relationships` rows when `posts` or `events` change. A row inserted outside siterest (an import filing
 * events under a category, a hand-written INSERT) still had to copy them itself. `object_type` and `status` are
 * NOT NULL, so such an insert had to write something there. A wrong status put a draft into the public category
 * page; a start left NULL kept the event out of every dated tag page. Those copies were then never corrected,
 * because they only change when the event does.
 *
 * - A statement-level trigger with a transition table, like those of migration 63: an import of many rows runs one
 *   UPDATE.
 * - It only updates rows whose copies differ from the event's. siterest's own insert reads the keys from `events`
 *   in the same statement, so it finds nothing to change: two primary-key lookups per inserted row.
 * - It first takes a share lock on the events' rows. Without it, an insert running beside an update of the same
 *   event could copy the keys from before the update, and the update's own trigger, which cannot see the
 *   uncommitted row, would leave it so. siterest's writes already hold their event's row. An outside transaction
 *   that adds an event's term rows and then updates its post can now meet a siterest update of that event in a
 *   deadlock; PostgreSQL fails one of the two, and siterest runs its own again (as for its other deadlocks).
 * - Rows of objects that are not events (none are filed by siterest today) are left as they were.
 * - Rows already out of step are put right first, with the tables locked against writes, as migration 63 did.
 */
export const termRowKeysOnInsert: Migration = {
  version: 64,
  name: 'term_row_keys_on_insert',
  extensions: [],
  vacuums: ['term_relationships'],
  statements: [
    `LOCK TABLE posts, events, term_relationships IN SHARE ROW EXCLUSIVE MODE`,
    `UPDATE term_relationships r
        SET object_type = p.type, status = e.status, start_utc = e.start_utc, end_utc = e.end_utc, hide_from_listings = e.hide_from_listings
       FROM events e JOIN posts p ON p.id = e.post_id
      WHERE r.object_id = e.post_id
        AND (r.object_type, r.status, r.start_utc, r.end_utc, r.hide_from_listings)
            IS DISTINCT FROM (p.type, e.status, e.start_utc, e.end_utc, e.hide_from_listings)`,
    `CREATE FUNCTION term_row_keys_on_insert() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  -- The events' rows are locked first, in id order: an event update in flight is waited for, and its keys read
  -- after it commits (its own trigger cannot see rows this statement inserts).
  PERFORM 1 FROM events e WHERE e.post_id IN (SELECT n.object_id FROM new_rows n) ORDER BY e.post_id FOR SHARE OF e;
  UPDATE term_relationships r
     SET object_type = p.type, status = e.status, start_utc = e.start_utc, end_utc = e.end_utc, hide_from_listings = e.hide_from_listings
    FROM new_rows n
    JOIN events e ON e.post_id = n.object_id
    JOIN posts p ON p.id = e.post_id
   WHERE r.object_id = n.object_id AND r.taxonomy = n.taxonomy AND r.term_id = n.term_id
     AND (n.object_type, n.status, n.start_utc, n.end_utc, n.hide_from_listings)
         IS DISTINCT FROM (p.type, e.status, e.start_utc, e.end_utc, e.hide_from_listings);
  RETURN NULL;
END $$`,
    `CREATE TRIGGER term_row_keys_on_insert AFTER INSERT ON term_relationships REFERENCING NEW TABLE AS new_rows
       FOR EACH STATEMENT EXECUTE FUNCTION term_row_keys_on_insert()`,
  ],
};
