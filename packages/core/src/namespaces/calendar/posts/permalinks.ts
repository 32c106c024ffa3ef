import type { SiteSettings } from '../../../settings.js';
import type { PostRecord } from '../../../store/records.js';
import type { PostTypeConfig } from './types.js';
import { withoutTrailingSlashes } from '../../../http/php.js';

/** Statuses whose posts WordPress links with `?post_type=…&p=…` instead of their pretty permalink. */
const PLAIN_LINK_STATUSES = new Set(['draft', 'pending', 'auto-draft', 'future', 'trash']);

/** WordPress get_permalink for a custom post type. */
export function permalink(post: PostRecord, type: PostTypeConfig, settings: SiteSettings): string {
  if (PLAIN_LINK_STATUSES.has(post.status) || !post.slug) {
    return `${settings.home}/?post_type=${post.type}&p=${post.id}`;
  }
  if (!settings.permalink_structure) return `${settings.home}/?${post.type}=${post.slug}`;
  return `${settings.home}/${type.permalinkBase(settings)}/${post.slug}/`;
}

/** TEC's global id: the home URL's host and path, without scheme or port, then `?id=`. */
export function globalId(id: number, settings: SiteSettings): string {
  const url = new URL(settings.home);
  const path = withoutTrailingSlashes(url.pathname);
  return `${url.hostname}${path}?id=${id}`;
}
