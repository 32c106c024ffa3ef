import { defineNamespace, defineRoute, READABLE, type NamespaceDefinition } from '../../registry/types.js';
import { EVENT_TYPE } from '../calendar/constants.js';
import { CONTENT_NAMESPACE, DEFAULT_ARTICLE_TYPES, DEFAULT_MAX_ITEMS, NEWS_TYPE, POST_TYPE_KEY, VIDEO_TYPE } from './constants.js';
import { contentEmbeddables } from './embed.js';
import { article, articles, events, idArgs, listArgs, videoArgs, videos, type ContentSettings } from './routes.js';

export interface ContentOptions {
  /** Post types the `articles` route may list (`post_type`); default `news` and `post`. `news` is always one. */
  articleTypes?: readonly string[];
  /**
   * The most records one answer holds: `posts_per_page=-1` is served in pages of this size, and `videos` without
   * a `length` returns at most this many. Default 500.
   */
  maxItems?: number;
}

function settingsOf(options: ContentOptions): ContentSettings {
  const articleTypes = [...new Set([NEWS_TYPE, ...(options.articleTypes ?? DEFAULT_ARTICLE_TYPES)])];
  for (const type of articleTypes) if (!POST_TYPE_KEY.test(type) || type === EVENT_TYPE) throw new Error(`"${type}" cannot be an article post type.`);
  const maxItems = options.maxItems ?? DEFAULT_MAX_ITEMS;
  if (!Number.isInteger(maxItems) || maxItems < 1 || maxItems > 10_000) throw new Error('maxItems must be a whole number from 1 to 10000.');
  return { articleTypes, maxItems };
}

/**
 * `rest/v1`: the site's own read-only content API — articles (`news` and any post type the app lists), one
 * article, videos and upcoming calendar events. Public, and only ever published content.
 */
export function contentNamespace(options: ContentOptions = {}): NamespaceDefinition {
  const settings = settingsOf(options);
  return defineNamespace({
    namespace: CONTENT_NAMESPACE,
    embeddables: contentEmbeddables([...settings.articleTypes, VIDEO_TYPE]),
    routes: [
      defineRoute('/articles', [{ methods: READABLE, args: listArgs(10, NEWS_TYPE, settings.articleTypes), handler: articles(settings) }]),
      defineRoute('/articles/(?P<id>\\d+)', [{ methods: READABLE, args: idArgs, handler: article(settings) }]),
      defineRoute('/videos', [{ methods: READABLE, args: videoArgs, handler: videos(settings) }]),
      defineRoute('/events', [{ methods: READABLE, args: listArgs(-1, EVENT_TYPE, [EVENT_TYPE, ...settings.articleTypes]), handler: events(settings) }]),
    ],
  });
}

export { content, type ContentAdmin, type ContentUpdate, type NewArticleInput, type NewVideoInput, type SeoMetaInput } from './admin.js';
export { CONTENT_NAMESPACE, NEWS_TYPE, VIDEO_TYPE, ARTICLE_CATEGORY_TAXONOMY, VIDEO_CATEGORY_TAXONOMY } from './constants.js';
