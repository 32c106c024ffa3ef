import type { Migration } from './migration.js';

/**
 * Titles have no length limit (WordPress stores them as text), but a B-tree index entry must fit in a third
 * of a page: a post titled with a few kilobytes failed to insert. Title lookups are equality only (duplicate
 * avoidance of venues and organizers), which a hash index serves at any length.
 */
export const titleHashIndex: Migration = {
  version: 4,
  name: 'title_hash_index',
  extensions: [],
  statements: [`DROP INDEX posts_type_title`, `CREATE INDEX posts_title_hash ON posts USING hash (lower(title))`],
};
