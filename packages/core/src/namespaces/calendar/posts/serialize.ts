import type { SiteSettings } from '../../../settings.js';
import type { PostRecord } from '../../../store/records.js';
import { globalId, permalink } from './permalinks.js';
import type { PostTypeConfig } from './types.js';

/** The post fields every calendar object starts with (TEC's Post_Repository), in wire order. */
export function postHead(post: PostRecord, type: PostTypeConfig, settings: SiteSettings): Record<string, unknown> {
  return {
    id: post.id,
    author: String(post.authorId),
    status: post.status,
    date: post.date,
    date_utc: post.dateGmt,
    modified: post.modified,
    modified_utc: post.modifiedGmt,
    url: permalink(post, type, settings),
  };
}

export function globalIds(post: PostRecord, settings: SiteSettings): { global_id: string; global_id_lineage: string[] } {
  const id = globalId(post.id, settings);
  return { global_id: id, global_id_lineage: [id] };
}

/** PHP's notion of empty, as TEC's array_filter of venue and organizer data uses it. */
export function isFalsy(value: unknown): boolean {
  return (
    value === false ||
    value === null ||
    value === undefined ||
    value === '' ||
    value === '0' ||
    value === 0 ||
    (Array.isArray(value) && value.length === 0)
  );
}
