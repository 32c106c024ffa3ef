/** The site's own content API (a theme's `rest/v1`). */
export const CONTENT_NAMESPACE = 'rest/v1';

/** The post type the articles route lists by default. */
export const NEWS_TYPE = 'news';

/** WordPress's own posts, which the SEO statistics count. */
export const POST_TYPE = 'post';

export const VIDEO_TYPE = 'video';

/** Category taxonomies: articles share WordPress's `category`; videos have their own. */
export const ARTICLE_CATEGORY_TAXONOMY = 'category';
export const VIDEO_CATEGORY_TAXONOMY = 'video_category';

/** Article post types listed when the app names none. */
export const DEFAULT_ARTICLE_TYPES: readonly string[] = [NEWS_TYPE, POST_TYPE];

/** The most records one answer holds when "all" is asked for (`posts_per_page=-1`, videos without `length`). */
export const DEFAULT_MAX_ITEMS = 500;

/** WordPress post type keys: at most 20 lowercase letters, digits, `_` or `-`. */
export const POST_TYPE_KEY = /^[a-z0-9_-]{1,20}$/;
