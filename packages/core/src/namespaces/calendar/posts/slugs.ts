import type { SiteStore } from '../../../store/repositories.js';
import { sanitizeTitle, SLUG_MAX_LENGTH, truncateSlug } from '../../../text/sanitize.js';

const DRAFTISH = new Set(['draft', 'pending', 'auto-draft']);
/** Slugs WordPress never gives a post (they collide with feeds and embeds). */
const RESERVED = new Set(['embed', 'feed', 'rdf', 'rss', 'rss2', 'atom']);

/**
 * wp_insert_post's slug: the given one (sanitised) or one made from the title once the post is public; drafts
 * without one keep none. wp_unique_post_slug then appends `-2`, `-3`… while another post of the type has it.
 */
export async function postSlug(
  store: SiteStore,
  type: string,
  requested: string | undefined,
  title: string,
  status: string,
  id?: number,
): Promise<string> {
  let slug = requested ? truncateSlug(sanitizeTitle(requested)) : '';
  if (!slug) {
    if (DRAFTISH.has(status)) return '';
    slug = truncateSlug(sanitizeTitle(title)) || (id !== undefined ? String(id) : '');
  }
  if (DRAFTISH.has(status) && !requested) return slug;
  if (!slug) return slug;
  if (!RESERVED.has(slug) && !(await store.posts.slugTaken(type, slug, id))) return slug;
  for (let n = 2; ; n++) {
    const suffix = `-${n}`;
    const candidate = truncateSlug(slug, SLUG_MAX_LENGTH - suffix.length) + suffix;
    if (!(await store.posts.slugTaken(type, candidate, id))) return candidate;
  }
}

const TRASHED_SUFFIX = '__trashed';

/** wp_trash_post keeps the slug free for new posts by suffixing the trashed one's. */
export function trashedSlug(slug: string): string {
  return slug && !slug.endsWith(TRASHED_SUFFIX) ? `${slug}${TRASHED_SUFFIX}` : slug;
}

/**
 * wp_insert_post on a post leaving the trash: the slug it had before it was trashed (which wp_trash_post kept as
 * `_wp_desired_post_slug` when it added the suffix) comes back, made unique again by wp_unique_post_slug, in place
 * of any slug the request names, as in WordPress. Undefined when the post is not leaving the trash or its slug has
 * no suffix to take off.
 */
export async function untrashedSlug(
  store: SiteStore,
  type: string,
  current: { id: number; status: string; slug: string; title: string },
  status: string,
): Promise<string | undefined> {
  if (current.status !== 'trash' || status === 'trash' || !current.slug.endsWith(TRASHED_SUFFIX)) return undefined;
  const desired = current.slug.slice(0, -TRASHED_SUFFIX.length);
  return desired ? postSlug(store, type, desired, current.title, status, current.id) : undefined;
}
