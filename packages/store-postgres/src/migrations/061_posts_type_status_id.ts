import type { Migration } from './migration.js';

/**
 * Posts of a type and status in id order. A venues or organizers list counts its total as posts of the type
 * joined to their venue or organizer rows; PostgreSQL planned that count as a merge join walking `posts_pkey`
 * with the type and status as a filter, expecting to stop after the last venue's id, but such a scan only stops
 * when it finds no further matching post: it read every post of the site (10,000 events: 1.6 to 25 ms for a
 * 50-venue count). With this index the same merge join reads the type's posts alone, in id order.
 */
export const postsTypeStatusId: Migration = {
  version: 61,
  name: 'posts_type_status_id',
  extensions: [],
  statements: [`CREATE INDEX posts_type_status_id ON posts (type, status, id)`, `ANALYZE posts`],
};
