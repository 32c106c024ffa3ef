import { intval, isNumeric, withoutTrailingSlashes } from '../../http/php.js';
import type { SiteContext } from '../../site-context.js';
import type { SiteSettings } from '../../settings.js';
import type { PostRecord } from '../../store/records.js';
import type { EmbeddablePostType } from '../oembed/embeds.js';
import { POST_TYPE, POST_TYPE_KEY } from './constants.js';
import { contentLink } from './serialize.js';

/** The path below the home URL, decoded, without `/embed` and slashes at the end; null when it is not below it. */
function pathBelowHome(url: URL, settings: SiteSettings): string | null {
  const homePath = withoutTrailingSlashes(new URL(settings.home).pathname);
  let path: string;
  try {
    path = decodeURIComponent(url.pathname);
  } catch {
    return null;
  }
  if (!path.startsWith(`${homePath}/`)) return null;
  return withoutTrailingSlashes(path.slice(homePath.length + 1)).replace(/\/embed$/, '');
}

/**
 * url_to_postid for one content post type: `<home>/<type>/<slug>/` (posts: `<home>/<slug>/`), optionally
 * `…/embed/`, `?<type>=<slug>`, or `?p=<id>` / `?post_type=<type>&p=<id>`.
 */
function finder(type: string) {
  return async (url: URL, site: SiteContext): Promise<PostRecord | null> => {
    const store = site.store;
    const byId = url.searchParams.get('p');
    if (byId !== null && isNumeric(byId)) {
      const named = url.searchParams.get('post_type') ?? POST_TYPE;
      if (named !== type) return null;
      const record = await store.content.get(intval(byId));
      return record && record.type === type ? record : null;
    }
    let slug = type === POST_TYPE ? null : url.searchParams.get(type);
    if (slug === null) {
      const rest = pathBelowHome(url, site.settings);
      if (rest === null) return null;
      const parts = rest.split('/');
      if (type === POST_TYPE ? parts.length !== 1 : parts.length !== 2 || parts[0] !== type) return null;
      slug = parts[parts.length - 1]!;
    }
    if (!slug || slug.length > 200) return null;
    const id = await store.posts.idBySlug(type, slug.toLowerCase());
    return id === null ? null : store.content.get(id);
  };
}

/** Articles and videos can be embedded by other sites (oEmbed), as WordPress embeds any public post type. */
export function contentEmbeddables(types: readonly string[]): EmbeddablePostType[] {
  return types
    .filter((type) => POST_TYPE_KEY.test(type))
    .map((type) => ({ type, find: finder(type), permalink: (post: PostRecord, settings: SiteSettings) => contentLink(post, settings, type === POST_TYPE ? null : type) }));
}
