import type { Migration } from './migration.js';

/**
 * The term rows of events ending before they start (few, if any), as `events_ending_before_start` (migration 12) holds
 * such events. A category or tag list's total, bounded by the end but not as tightly by the start, read every row of
 * its terms starting after the end bound, since an event may end before it starts: the API's default window (starting
 * from yesterday, ending within two years) read the term rows of the years beyond as well (a million events, two
 * categories: 8,867 rows read and dropped beside 15,421 counted). Such a total, and the matches of a term list with a
 * venue or organizer, now read the rows starting by the end bound from the listing index and the others from here
 * (termRowParts in event-list.ts). A category and a tag together were read so too, until migration 70 moved them to
 * event_search.
 */
export const termRowsEndingBeforeStart: Migration = {
  version: 69,
  name: 'term_rows_ending_before_start',
  extensions: [],
  statements: [
    `CREATE INDEX term_relationships_ending_before_start ON term_relationships (term_id, taxonomy, object_type, status, start_utc, object_id)
       INCLUDE (hide_from_listings, end_utc) WHERE end_utc < start_utc`,
  ],
};
