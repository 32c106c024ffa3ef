import type { Migration } from './migration.js';

/**
 * Migration 65's row trigger locked an event's venues in the same query that tested their coordinates, and
 * PostgreSQL ran the test below the lock: a venue without coordinates in the statement's snapshot was never
 * locked. A change giving it coordinates could then commit beside the event's write, its own trigger not seeing
 * the uncommitted event, and the event kept `located = false` (13 of 1,000 concurrent writes in a test).
 *
 * Now the venues are locked first, all of them, in id order (a statement of its own), and their coordinates read
 * by the next statement, whose snapshot is taken after the locks: any change committed before is read, and any
 * later one waits for the event's commit and then finds it. Flags already wrong are set again from the venues.
 */
export const eventLocatedLock: Migration = {
  version: 66,
  name: 'event_located_lock',
  extensions: [],
  vacuums: ['events'],
  statements: [
    `LOCK TABLE events, venues IN SHARE ROW EXCLUSIVE MODE`,
    `CREATE OR REPLACE FUNCTION event_located() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  PERFORM 1 FROM venues v WHERE v.post_id = ANY(NEW.venue_ids) ORDER BY v.post_id FOR SHARE;
  NEW.located := EXISTS (SELECT 1 FROM venues v WHERE v.post_id = ANY(NEW.venue_ids) AND v.geo_lat IS NOT NULL AND v.geo_lng IS NOT NULL);
  RETURN NEW;
END $$`,
    // Set from the venues by the trigger; only the events whose flag is wrong are written.
    `UPDATE events e SET located = NOT e.located
      WHERE e.located IS DISTINCT FROM EXISTS (SELECT 1 FROM venues v WHERE v.post_id = ANY(e.venue_ids) AND v.geo_lat IS NOT NULL AND v.geo_lng IS NOT NULL)`,
  ],
};
