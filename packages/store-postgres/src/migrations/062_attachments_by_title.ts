import type { Migration } from './migration.js';

/**
 * Attachments of a status in title order, as the media library lists them when asked (`orderby=title`, PostgreSQL
 * comparing `lower(title)`). Title lookups use a hash index (migration 4), which keeps no order: a page of a large
 * library sorted by title sorted every attachment of the status first. Partial, so only attachments pay for it.
 */
export const attachmentsByTitle: Migration = {
  version: 62,
  name: 'attachments_by_title',
  extensions: [],
  statements: [`CREATE INDEX posts_attachment_status_title ON posts (status, lower(title), id) WHERE type = 'attachment'`],
};
