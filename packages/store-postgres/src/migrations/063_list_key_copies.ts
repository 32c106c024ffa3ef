import type { Migration } from './migration.js';

/**
 * The event list's copies of an event's keys, kept by the database instead of by the store's writes.
 *
 * `events.status` copies the post's status, and each `term_relationships` row of an event copies its status, start,
 * end and hidden flag (migrations 1 and 13), so that a list and its total are read from one index. The store wrote
 * the copies itself, in the same transaction as the event. A write made outside siterest (an SQL statement, an
 * import, another tool that sets `posts.status` as WordPress tools do, or moves `events.start_utc`) left them as
 * they were, and the list kept answering from the old keys until siterest next wrote that event: a post set to draft
 * stayed in the category pages, an event moved to another month stayed in the old month's tag pages. The answer
 * cache sees such writes within its `maxAgeMs`; these copies never did.
 *
 * - Statement-level triggers with transition tables, like event_search (migration 14): an import that updates many
 *   rows is one UPDATE per table, not one per row.
 * - `posts` → `events`: the status. Checked before updating, so a posts write that changes no event's status (the
 *   store's own writes set both in one statement; most posts are not events) runs no `events` statement and so none
 *   of the triggers of `events`.
 * - `events` → `term_relationships`: status, start, end and hidden flag, only where one differs. Non-key columns:
 *   the foreign key checks of `term_relationships` do not run, and the rows updated are the event's own, whose
 *   writers already hold the event's row lock.
 * - Copies already out of step (outside writes made before this migration) are put right first, with the tables
 *   locked against writes, so no write falls between the repair and the first statement the triggers keep.
 *
 * At a million events (2.3 million term rows, two-core test machine) the migration took 4.4 s; an outside UPDATE of
 * 10,000 events' dates took 11.0–11.5 s against 10.5–10.7 s without the trigger (most of it event_search's and the
 * day counts'); a post's status set by SQL costs about 1 ms more, for the copies it now writes.
 *
 * A row added to `term_relationships` outside siterest still had to copy the keys itself: migration 64 takes them
 * from the event instead.
 */
export const listKeyCopies: Migration = {
  version: 63,
  name: 'list_key_copies',
  extensions: [],
  vacuums: ['events', 'term_relationships'],
  statements: [
    `LOCK TABLE posts, events, term_relationships IN SHARE ROW EXCLUSIVE MODE`,
    `UPDATE events e SET status = p.status FROM posts p WHERE p.id = e.post_id AND e.status IS DISTINCT FROM p.status`,
    `UPDATE term_relationships r
        SET status = e.status, start_utc = e.start_utc, end_utc = e.end_utc, hide_from_listings = e.hide_from_listings
       FROM events e
      WHERE r.object_id = e.post_id
        AND (r.status, r.start_utc, r.end_utc, r.hide_from_listings) IS DISTINCT FROM (e.status, e.start_utc, e.end_utc, e.hide_from_listings)`,
    `CREATE FUNCTION list_keys_from_posts() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM new_rows n JOIN events e ON e.post_id = n.id WHERE e.status IS DISTINCT FROM n.status) THEN
    UPDATE events e SET status = n.status FROM new_rows n WHERE e.post_id = n.id AND e.status IS DISTINCT FROM n.status;
  END IF;
  RETURN NULL;
END $$`,
    `CREATE FUNCTION list_keys_to_terms() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  UPDATE term_relationships r
     SET status = n.status, start_utc = n.start_utc, end_utc = n.end_utc, hide_from_listings = n.hide_from_listings
    FROM new_rows n
   WHERE r.object_id = n.post_id
     AND (r.status, r.start_utc, r.end_utc, r.hide_from_listings) IS DISTINCT FROM (n.status, n.start_utc, n.end_utc, n.hide_from_listings);
  RETURN NULL;
END $$`,
    `CREATE TRIGGER list_keys_from_posts AFTER UPDATE ON posts REFERENCING NEW TABLE AS new_rows
       FOR EACH STATEMENT EXECUTE FUNCTION list_keys_from_posts()`,
    `CREATE TRIGGER list_keys_to_terms AFTER UPDATE ON events REFERENCING NEW TABLE AS new_rows
       FOR EACH STATEMENT EXECUTE FUNCTION list_keys_to_terms()`,
  ],
};
