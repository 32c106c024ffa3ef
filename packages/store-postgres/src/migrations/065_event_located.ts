import type { Migration } from './migration.js';

/** A venue row with coordinates, as the lists' geo filter and the memory store read it. */
const HAS_COORDINATES = (v: string) => `(${v}.geo_lat IS NOT NULL AND ${v}.geo_lng IS NOT NULL)`;

/**
 * Each event says whether one of its venues has coordinates (`events.located`), and the day counts of migration 12
 * count located events apart, so the total of TEC Pro's map view without a point (`geoloc=true`) is a sum of day
 * counts like the default list's. Tested event by event against `venues`, the total at a million events read every
 * event of the API's two-year window (some 200,000, half of them located): 330–410 ms.
 *
 * - A BEFORE row trigger sets `located` on every insert of an event and every update that names `venue_ids` or
 *   `located`, from the venues' rows. A value written by hand is recomputed, never trusted.
 * - It reads the venues FOR SHARE, in id order: a change of a venue's coordinates running beside the event's write
 *   is either committed first (and read: a locked row is read in its newest version) or waits for the event's
 *   commit (and then its own trigger, below, finds the event). Without the lock, an event written beside such a
 *   change kept the flag of the coordinates before it. (As first written here, the lock missed venues without
 *   coordinates: migration 66 locks them all, then reads them.)
 * - Statement triggers on `venues` (with transition tables, like those of migrations 12 and 14) update the events
 *   of every venue that gained or lost its coordinates, was inserted with them or was deleted with them; TRUNCATE
 *   of `venues` clears every flag. The events' rows are locked in id order first, as any multi-row writer of
 *   `events` must. A transaction that holds an event and then changes one of its venues can meet one that holds the
 *   venue and then writes the event: PostgreSQL fails one of the two, and siterest runs its own again.
 * - The day counts gain `located` in their key. Their rows all counted unlocated events until the flags are set, so
 *   setting them (after the counting trigger knows the new key) moves each located event's count to its own row:
 *   no recount.
 *
 * `events` and `venues` are locked for the whole change, so no write falls between the flags' backfill and the
 * triggers that keep them. The backfill rewrites the row of every located event: until a vacuum marks their pages
 * all-visible again, index-only scans of `events` read the table too, and the planner, knowing it, may pick other
 * plans (at a million events, with autovacuum off, a month's window read 311,445 rows of the table: 1 s instead of
 * 4 ms). So the runner vacuums `events` once the migration has committed (3.5 s at a million events; see
 * Migration.vacuums).
 */
export const eventLocated: Migration = {
  version: 65,
  name: 'event_located',
  extensions: [],
  vacuums: ['events', 'event_day_counts'],
  statements: [
    `LOCK TABLE events, venues, event_day_counts IN SHARE ROW EXCLUSIVE MODE`,
    `ALTER TABLE event_day_counts ADD COLUMN located boolean NOT NULL DEFAULT false`,
    `ALTER TABLE event_day_counts DROP CONSTRAINT event_day_counts_pkey`,
    `ALTER TABLE event_day_counts ADD PRIMARY KEY (status, hide_from_listings, start_day, end_day, located)`,
    `CREATE OR REPLACE FUNCTION event_day_counts_apply() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO event_day_counts AS c (status, hide_from_listings, start_day, end_day, located, n)
    SELECT status, hide_from_listings, start_utc::date, end_utc::date, located, count(*) FROM new_rows
     GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5
    ON CONFLICT (status, hide_from_listings, start_day, end_day, located) DO UPDATE SET n = c.n + EXCLUDED.n;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO event_day_counts AS c (status, hide_from_listings, start_day, end_day, located, n)
    SELECT status, hide_from_listings, start_utc::date, end_utc::date, located, -count(*) FROM old_rows
     GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5
    ON CONFLICT (status, hide_from_listings, start_day, end_day, located) DO UPDATE SET n = c.n + EXCLUDED.n;
  ELSE
    -- Rows whose key did not change cancel out and write nothing.
    INSERT INTO event_day_counts AS c (status, hide_from_listings, start_day, end_day, located, n)
    SELECT status, hide_from_listings, start_day, end_day, located, sum(delta) FROM (
      SELECT status, hide_from_listings, start_utc::date AS start_day, end_utc::date AS end_day, located, 1 AS delta FROM new_rows
      UNION ALL
      SELECT status, hide_from_listings, start_utc::date, end_utc::date, located, -1 FROM old_rows
    ) changes
     GROUP BY 1, 2, 3, 4, 5 HAVING sum(delta) <> 0 ORDER BY 1, 2, 3, 4, 5
    ON CONFLICT (status, hide_from_listings, start_day, end_day, located) DO UPDATE SET n = c.n + EXCLUDED.n;
  END IF;
  RETURN NULL;
END $$`,
    `ALTER TABLE events ADD COLUMN located boolean NOT NULL DEFAULT false`,
    `UPDATE events e SET located = true WHERE EXISTS (SELECT 1 FROM venues v WHERE v.post_id = ANY(e.venue_ids) AND ${HAS_COORDINATES('v')})`,
    `CREATE FUNCTION event_located() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  -- The condition is tested outside the locking scan, on the rows it returns: their newest versions.
  NEW.located := EXISTS (
    SELECT 1 FROM (SELECT v.geo_lat, v.geo_lng FROM venues v WHERE v.post_id = ANY(NEW.venue_ids) ORDER BY v.post_id FOR SHARE) v
     WHERE ${HAS_COORDINATES('v')});
  RETURN NEW;
END $$`,
    `CREATE TRIGGER event_located BEFORE INSERT OR UPDATE OF venue_ids, located ON events FOR EACH ROW EXECUTE FUNCTION event_located()`,
    `CREATE FUNCTION venue_located_events() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
  changed bigint[];
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    UPDATE events SET located = false WHERE located;
    RETURN NULL;
  ELSIF TG_OP = 'INSERT' THEN
    SELECT array_agg(n.post_id) INTO changed FROM new_rows n WHERE ${HAS_COORDINATES('n')};
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(o.post_id) INTO changed FROM old_rows o WHERE ${HAS_COORDINATES('o')};
  ELSE
    SELECT array_agg(DISTINCT coalesce(n.post_id, o.post_id)) INTO changed
      FROM new_rows n FULL JOIN old_rows o ON o.post_id = n.post_id
     WHERE (n.post_id IS NOT NULL AND ${HAS_COORDINATES('n')}) IS DISTINCT FROM (o.post_id IS NOT NULL AND ${HAS_COORDINATES('o')});
  END IF;
  IF changed IS NULL THEN
    RETURN NULL;
  END IF;
  -- Set from the venues again by event_located; only the events whose flag changes are written.
  UPDATE events e SET located = NOT e.located
   WHERE e.post_id IN (SELECT l.post_id FROM events l WHERE l.venue_ids && changed ORDER BY l.post_id FOR UPDATE)
     AND e.located IS DISTINCT FROM EXISTS (SELECT 1 FROM venues v WHERE v.post_id = ANY(e.venue_ids) AND ${HAS_COORDINATES('v')});
  RETURN NULL;
END $$`,
    `CREATE TRIGGER venue_located_events_insert AFTER INSERT ON venues REFERENCING NEW TABLE AS new_rows
       FOR EACH STATEMENT EXECUTE FUNCTION venue_located_events()`,
    `CREATE TRIGGER venue_located_events_update AFTER UPDATE ON venues REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
       FOR EACH STATEMENT EXECUTE FUNCTION venue_located_events()`,
    `CREATE TRIGGER venue_located_events_delete AFTER DELETE ON venues REFERENCING OLD TABLE AS old_rows
       FOR EACH STATEMENT EXECUTE FUNCTION venue_located_events()`,
    `CREATE TRIGGER venue_located_events_truncate AFTER TRUNCATE ON venues FOR EACH STATEMENT EXECUTE FUNCTION venue_located_events()`,
    `ANALYZE events`,
  ],
};
