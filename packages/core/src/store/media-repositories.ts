import type { AttachmentQuery, AttachmentRecord, ImageUsageQuery, NewAttachment } from './media-records.js';
import type { Page } from './records.js';
import type { Patch, PostTypeRepository } from './repositories.js';

/**
 * The media library's attachments. Their writes do not advance the store's change version except where a
 * calendar answer shows them: `update` of `metadata`, `file` or `mimeType`, and `delete` (an event's `image`
 * object is built from them). Title, caption, description and alt text changes leave cached lists valid.
 */
export interface AttachmentRepository extends PostTypeRepository<AttachmentRecord, NewAttachment> {
  update(id: number, patch: Patch<AttachmentRecord>): Promise<AttachmentRecord>;
  /** Removes the record (files are the library's business); false when there was none. */
  delete(id: number): Promise<boolean>;
  list(query: AttachmentQuery): Promise<Page<AttachmentRecord>>;
  /** The attachment stored from this URL, or whose file is at this URL (sideloads are not repeated). */
  findByUrl(url: string): Promise<AttachmentRecord | null>;
  /** Attached files (storage keys) in a folder, `2026/11/` (files that must never be taken for stale sizes). */
  filesIn(folder: string): Promise<string[]>;
  /** Distinct featured image ids of all posts, ordered by the lowest post id using each. */
  featuredImages(offset: number, limit: number): Promise<Page<number>>;
  /** Ids and types of posts whose content names the image, by id ascending. */
  postsUsingImage(query: ImageUsageQuery): Promise<Array<{ id: number; type: string }>>;
}

/** A store-backed cache with expiry (the oEmbed proxy keeps provider answers here). */
export interface CacheRepository {
  /** The value stored under `key` unless it expired before `now` (epoch ms). */
  get(key: string, now: number): Promise<unknown>;
  set(key: string, value: unknown, expiresAt: number): Promise<void>;
  delete(key: string): Promise<void>;
  /** Drops entries that expired before `now`; returns how many. */
  purge(now: number): Promise<number>;
}
