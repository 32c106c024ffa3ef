import type { Paging, StatusFilter } from './queries.js';
import type { Page, PostRecord } from './records.js';

/**
 * What a content record (an article of any post type, a video) keeps beside the post fields: its categories
 * (ids in the type's category taxonomy), a video's address, and the search-optimisation meta WordPress keeps
 * as Yoast SEO post meta.
 */
export interface ContentFields {
  /** Terms of the type's category taxonomy (`category` for articles, `video_category` for videos). */
  categoryIds: number[];
  /** The video's address (videos only; `""` otherwise). */
  videoUrl: string;
  /** `_yoast_wpseo_focuskw`; `""` means the meta is absent (Yoast deletes it when emptied). */
  focusKeyphrase: string;
  /** `_yoast_wpseo_linkdex`, 0–100; 0 means no score. */
  seoScore: number;
  /** `_yoast_wpseo_meta-robots-noindex` = "1". */
  noindex: boolean;
  /** Internal links counted in the content by the last reindex; null when never counted or changed since. */
  linkCount: number | null;
}

export type ContentRecord = PostRecord & ContentFields;
export type NewContent = Omit<ContentRecord, 'id'>;
export type ContentPatch = Partial<Omit<ContentRecord, 'id' | 'type'>>;

/** A content list query: newest first (publication date, then id, both descending). */
export interface ContentQuery extends Paging {
  types: readonly string[];
  statuses: StatusFilter;
  /** Only records with one of these categories. */
  categoryIds?: readonly number[];
  /** Leave out password-protected records. */
  withoutPassword?: boolean;
}

/** Yoast's five SEO ranks, counted over published records of one type (optionally one author's). */
export interface SeoRankCounts {
  bad: number;
  ok: number;
  good: number;
  na: number;
  noindex: number;
}

export interface ContentRepository {
  /** A content record of any content type, or null. */
  get(id: number): Promise<ContentRecord | null>;
  list(query: ContentQuery): Promise<Page<ContentRecord>>;
  create(input: NewContent): Promise<ContentRecord>;
  update(id: number, patch: ContentPatch): Promise<ContentRecord | null>;
  delete(id: number): Promise<boolean>;
  /**
   * Yoast's statistics counts: bad = score 1–40, ok 41–70, good 71–100, na = no focus keyphrase, noindex =
   * flagged; a record may count in two ranks (a score and noindex), as upstream's separate queries do.
   */
  seoRankCounts(query: { type: string; status: string; authorId?: number }): Promise<SeoRankCounts>;
  /** Published records (any content type) whose links were never counted (linkCount null), lowest id first. */
  linksPending(limit: number): Promise<ContentRecord[]>;
  /** Stores a link count unless the record changed since it was read (its `modifiedGmt` and content moved on). */
  setLinkCount(id: number, count: number, content: string): Promise<boolean>;
}
