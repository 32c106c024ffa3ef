import type sanitizeHtml from 'sanitize-html';
import { filterHtml } from '../../../text/html-filter.js';
import { phpTrim } from '../../../http/php.js';
import { removeBracketed, removeScriptAndStyle } from '../../../text/markup-scans.js';
import { doBlocks, wpautop } from './render.js';

/*
 * TEC's `tribe_events_get_the_excerpt()` (src/functions/template-tags/general.php), which JSON-LD uses as
 * `description` for events, venues and organizers: the explicit excerpt if there is one, else the content;
 * shortcodes removed, HTML reduced to a few inline tags, the content (not an explicit excerpt) trimmed to 55
 * words, then `wpautop`. No `the_content`/`the_excerpt` filters run, so nothing is texturized.
 */

const BASE_ATTRS = ['class', 'id', 'style'];

/** TEC's default excerpt `$allowed_html`. */
const EXCERPT_KSES: sanitizeHtml.IOptions = {
  allowedTags: ['a', 'b', 'strong', 'em', 'span', 'ul', 'li', 'ol'],
  allowedAttributes: {
    a: [...BASE_ATTRS, 'href', 'rel', 'target'],
    b: BASE_ATTRS,
    strong: BASE_ATTRS,
    em: BASE_ATTRS,
    span: BASE_ATTRS,
    ul: BASE_ATTRS,
    li: BASE_ATTRS,
    ol: BASE_ATTRS,
  },
  disallowedTagsMode: 'discard',
  // wp_kses removes disallowed tags but keeps whatever text they contain, <script>/<style> included.
  nonTextTags: [],
  parser: { decodeEntities: false },
};

/** PHP `empty()` for a string field. */
function phpEmpty(value: string): boolean {
  return value === '' || value === '0';
}

/** `wp_strip_all_tags`: <script>/<style> dropped with their content, all other tags removed, trimmed. */
export function stripAllTags(html: string, removeBreaks = false): string {
  let text = removeScriptAndStyle(html);
  text = text.replace(/<!--[\s\S]*?(?:-->|$)/g, '').replace(/<(?=[^\s<])[^>]*(?:>|$)/g, '');
  if (removeBreaks) text = text.replace(/[\r\n\t ]+/g, ' ');
  return phpTrim(text);
}

/**
 * `wp_trim_words` (word-counting locales): tags stripped, at most `count` words, `more` appended when cut. PHP
 * splits the text into at most `count + 1` pieces and drops the last piece when there are more than `count`; a
 * limit of 0 or -1 means no limit and one below -1 no split at all, so a `count` below 0 (which a client can ask
 * for through `excerpt_length`) always cuts: -1 and -2 drop the last word, anything lower leaves only `more`.
 */
export function trimWords(text: string, count = 55, more = ' [&hellip;]'): string {
  if (count < -2) return more;
  const words = stripAllTags(text).split(/[\n\r\t ]+/).filter((word) => word !== '');
  if (count < 0) return words.slice(0, -1).join(' ') + more;
  if (words.length > count) return words.slice(0, count).join(' ') + more;
  return words.join(' ');
}

export interface ExcerptSource {
  content: string;
  excerpt: string;
}

/** `tribe_events_get_the_excerpt( $post )` with its default arguments and filters. */
export function tecExcerpt(post: ExcerptSource, options: { length?: number; more?: string } = {}): string {
  const hasExcerpt = !phpEmpty(post.excerpt);
  let text = hasExcerpt ? post.excerpt : post.content;
  // excerpt_remove_blocks(): approximated by rendering static blocks (see doBlocks).
  text = doBlocks(text);
  // Anything that looks like a shortcode goes (PCRE `#\[.+\]#U`: ungreedy, no newlines inside).
  text = removeBracketed(text);
  text = filterHtml(text, EXCERPT_KSES);
  if (!hasExcerpt) text = trimWords(text, options.length ?? 55, options.more ?? ' [&hellip;]');
  return wpautop(text);
}
