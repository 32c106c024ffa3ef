import type { PostRecord } from './records.js';
import type { Paging, StatusFilter } from './queries.js';

/** One generated size of an image, as WordPress keeps it in `_wp_attachment_metadata['sizes']`. */
export interface AttachmentSizeMeta {
  file: string;
  width: number;
  height: number;
  'mime-type': string;
  filesize: number;
}

/** `image_meta` as wp_read_image_metadata leaves it (every value a string, keywords a list). */
export interface ImageMeta {
  aperture: string;
  credit: string;
  camera: string;
  caption: string;
  created_timestamp: string;
  copyright: string;
  focal_length: string;
  iso: string;
  shutter_speed: string;
  title: string;
  orientation: string;
  keywords: string[];
}

/**
 * WordPress attachment metadata (`wp_generate_attachment_metadata`), keys in WordPress's order: the
 * attached file's size, its path below the uploads folder, its bytes, the generated sizes (in the order
 * WordPress makes them), the image's own metadata and, for scaled or rotated uploads, the original's name.
 */
export interface AttachmentMetadata {
  width: number;
  height: number;
  file: string;
  filesize: number;
  sizes: Record<string, AttachmentSizeMeta>;
  image_meta: ImageMeta;
  original_image?: string;
}

export interface AttachmentFields {
  /** `post_mime_type`. */
  mimeType: string;
  /** `_wp_attached_file`: the storage key of the file the attachment shows (the scaled copy for big images). */
  file: string;
  /** The file's URL when it was stored (`guid`). */
  guid: string;
  metadata: AttachmentMetadata | null;
  /** `_wp_attachment_image_alt`. */
  altText: string;
  /** The URL a sideloaded image came from (TEC's `_tribe_importer_original_url`), `""` for uploads. */
  sourceUrl: string;
  /** `_wp_attachment_context` (`site-icon` for site icons, whose sizes are never regenerated). */
  context: string;
}

/** Attachments are post-like: `content` is the description, `excerpt` the caption, `parentId` the post it belongs to. */
export type AttachmentRecord = PostRecord & AttachmentFields;
export type NewAttachment = Omit<AttachmentRecord, 'id'>;

export type AttachmentOrderBy = 'date' | 'id' | 'title' | 'slug' | 'modified' | 'include' | 'author' | 'parent';

export interface AttachmentQuery extends Paging {
  statuses: StatusFilter;
  /** Every word in title, description or caption, or in the file name. */
  search?: string;
  /** Exact MIME types or whole families (`image/`). */
  mimeTypes?: readonly string[];
  include?: readonly number[];
  exclude?: readonly number[];
  parentIds?: readonly number[];
  excludeParentIds?: readonly number[];
  authorIds?: readonly number[];
  excludeAuthorIds?: readonly number[];
  slugs?: readonly string[];
  /** Site-local publication date bounds, exclusive as WordPress's `after` / `before`. */
  after?: string;
  before?: string;
  modifiedAfter?: string;
  modifiedBefore?: string;
  orderBy: AttachmentOrderBy;
  order: 'asc' | 'desc';
}

/** Where a post's content names an image (`wp-image-<id>` classes) among the given types or ids. */
export interface ImageUsageQuery extends Paging {
  attachmentId: number;
  types?: readonly string[];
  ids?: readonly number[];
}
