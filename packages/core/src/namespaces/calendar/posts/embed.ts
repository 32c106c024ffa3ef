import { intval, isNumeric, withoutTrailingSlashes } from '../../../http/php.js';
import type { SiteContext } from '../../../site-context.js';
import type { PostRecord } from '../../../store/records.js';
import type { EmbeddablePostType } from '../../oembed/embeds.js';
import { EVENT_TYPE } from '../constants.js';
import { EVENTS } from '../events/kind.js';
import { permalink } from './permalinks.js';

/**
 * url_to_postid for events: `<home>/<event base>/<slug>/` (optionally `…/embed/`), `?cal_events=<slug>`, or
 * `?p=<id>` / `?post_type=cal_events&p=<id>`.
 */
async function findEvent(url: URL, site: SiteContext): Promise<PostRecord | null> {
  const store = site.store;
  const byId = url.searchParams.get('p');
  if (byId !== null && isNumeric(byId)) {
    const type = url.searchParams.get('post_type');
    if (type !== null && type !== EVENT_TYPE) return null;
    return store.events.get(intval(byId));
  }
  const bySlug = url.searchParams.get(EVENT_TYPE);
  let slug: string | null = bySlug;
  if (slug === null) {
    const homePath = withoutTrailingSlashes(new URL(site.settings.home).pathname);
    const base = site.settings.single_event_slug;
    let path: string;
    try {
      path = decodeURIComponent(url.pathname);
    } catch {
      return null;
    }
    const prefix = `${homePath}/${base}/`;
    if (!path.startsWith(prefix)) return null;
    const rest = withoutTrailingSlashes(path.slice(prefix.length)).replace(/\/embed$/, '');
    if (!rest || rest.includes('/')) return null;
    slug = rest;
  }
  if (!slug || slug.length > 200) return null;
  const id = await store.posts.idBySlug(EVENT_TYPE, slug.toLowerCase());
  return id === null ? null : store.events.get(id);
}

/** Events can be embedded by other sites (oEmbed). */
export const EVENT_EMBEDS: EmbeddablePostType = {
  type: EVENT_TYPE,
  find: findEvent,
  permalink: (post, settings) => permalink(post, EVENTS, settings),
};
