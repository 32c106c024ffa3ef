import type { Migration } from './migration.js';

/**
 * Articles (any content post type) and videos beside their `posts` rows: categories, a video's address and
 * the SEO meta (Yoast's focus keyphrase, score and noindex flag) with the reindexed link count.
 */
export const content: Migration = {
  version: 50,
  name: 'content',
  extensions: [],
  statements: [
    `CREATE TABLE content (
      post_id bigint PRIMARY KEY REFERENCES posts (id) ON DELETE CASCADE,
      category_ids bigint[] NOT NULL DEFAULT '{}',
      video_url text NOT NULL DEFAULT '',
      focus_keyphrase text NOT NULL DEFAULT '',
      seo_score integer NOT NULL DEFAULT 0,
      noindex boolean NOT NULL DEFAULT false,
      link_count integer
    )`,
    `CREATE INDEX content_category_ids ON content USING gin (category_ids)`,
    // Reindexing walks the records whose links were never counted.
    `CREATE INDEX content_links_pending ON content (post_id) WHERE link_count IS NULL`,
  ],
};
