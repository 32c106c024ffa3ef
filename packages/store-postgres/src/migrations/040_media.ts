import type { Migration } from './migration.js';

/**
 * The media library and the oEmbed proxy's cache. Attachments are posts (one id sequence with every post
 * type) with a row of their own; their metadata is JSON text, not `jsonb`, because WordPress's key order
 * (sizes in the order they were made) is part of the wire shape. The usage search behind thumbnail
 * regeneration ("posts whose content names wp-image-<id>") is served by the content trigram index.
 */
export const media: Migration = {
  version: 40,
  name: 'media',
  extensions: [],
  statements: [
    `CREATE TABLE attachments (
      post_id bigint PRIMARY KEY REFERENCES posts (id) ON DELETE CASCADE,
      mime_type text NOT NULL,
      file text NOT NULL,
      guid text NOT NULL DEFAULT '',
      metadata text,
      alt_text text NOT NULL DEFAULT '',
      source_url text NOT NULL DEFAULT '',
      context text NOT NULL DEFAULT ''
    )`,
    `CREATE INDEX attachments_file ON attachments (file text_pattern_ops)`,
    `CREATE INDEX attachments_source_url ON attachments (source_url) WHERE source_url <> ''`,
    `CREATE INDEX attachments_guid ON attachments (guid)`,
    // Featured images: distinct image ids ordered by the first post using them.
    `CREATE INDEX posts_image ON posts (image_id, id) WHERE image_id <> 0`,
    `CREATE TABLE oembed_cache (
      key text COLLATE "C" PRIMARY KEY,
      value json NOT NULL,
      expires_at double precision NOT NULL
    )`,
    `CREATE INDEX oembed_cache_expiry ON oembed_cache (expires_at)`,
  ],
};
