import type { Migration } from './migration.js';

/**
 * term_relationships keeps a copy of the event's end as well (written with the other list keys; kept by triggers
 * since migration 63): the API bounds every list's end, and a category or tag list had to join `events` for it,
 * event by event for its total (or scan all of `events` for two terms). The listing index carries the end, so
 * such a list and its total are read from that index alone again.
 */
export const termListEnd: Migration = {
  version: 13,
  name: 'term_list_end',
  extensions: [],
  vacuums: ['term_relationships'],
  statements: [
    `ALTER TABLE term_relationships ADD COLUMN end_utc timestamp`,
    `UPDATE term_relationships r SET end_utc = e.end_utc FROM events e WHERE e.post_id = r.object_id`,
    `CREATE INDEX term_relationships_listing_end ON term_relationships (term_id, taxonomy, object_type, status, start_utc, object_id)
       INCLUDE (hide_from_listings, end_utc)`,
    `DROP INDEX term_relationships_listing`,
    `ANALYZE term_relationships`,
  ],
};
