import type { Migration } from './migration.js';

/**
 * One trigram index over a post's title, content and excerpt together (SEARCH_TEXT in search-sql.ts): a search
 * term is then one index scan instead of a bitmap OR of three, and a rare word is found without reading the
 * three indexes' long posting lists.
 */
export const searchTextIndex: Migration = {
  version: 11,
  name: 'search_text_index',
  extensions: ['pg_trgm'],
  statements: [`CREATE INDEX posts_search_text_trgm ON posts USING gin ((title || ' ' || content || ' ' || excerpt) gin_trgm_ops)`],
};
