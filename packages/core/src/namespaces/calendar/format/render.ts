import { autop } from '@wordpress/autop';
import { phpTrim } from './escape.js';
import { texturize } from './texturize.js';

/*
 * What TEC's REST serialisers emit for the raw post fields: `trim( apply_filters( 'the_title' | 'the_content' |
 * 'the_excerpt', $raw ) )` with WordPress's default filters (wp-includes/default-filters.php):
 *
 *   the_title    wptexturize, convert_chars, trim, capital_P_dangit (title variant)
 *   the_content  do_blocks, wptexturize, wpautop (skipped when the content has blocks), capital_P_dangit,
 *                [shortcode_unautop, do_shortcode, convert_smilies, wp_filter_content_tags: not reproduced]
 *   the_excerpt  wptexturize, convert_chars, wpautop, [convert_smilies, shortcode_unautop, content tags: not reproduced]
 *
 * Note: `convert_chars` is not a `the_content` filter in WordPress (it is for titles and excerpts); texturize
 * already turns lone `&` into `&#038;` outside <pre>/<code>.
 */

/** `convert_chars`: a lone `&` (not starting an entity) becomes `&#038;`. */
export function convertChars(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&([^#])(?![a-z1-4]{1,8};)/gi, '&#038;$1');
}

/** `capital_P_dangit` for titles: a plain replacement. */
function capitalPDangitTitle(text: string): string {
  return text.split('Wordpress').join('WordPress');
}

/** `capital_P_dangit` for content: only after a space, an opening curly quote, `>` or `(`. */
export function capitalPDangit(text: string): string {
  return text.replace(/( |&#8216;|&#8220;|>|\()Wordpress/g, '$1WordPress');
}

/**
 * PHP `wpautop` via `@wordpress/autop`, plus the one rule the JS port lacks: text after a self-closing `<hr>`
 * starts a new paragraph (PHP adds a double line break after `<hr\s*?/?>`, outside <pre>).
 * Known remaining difference: PHP collapses whitespace around every <figcaption>, the JS port only the first.
 */
export function wpautop(text: string): string {
  if (text.includes('<hr')) {
    text = text
      .split(/(<pre[\s\S]*?<\/pre>)/)
      .map((part, i) => (i % 2 === 1 ? part : part.replace(/(<hr\s*?\/?>)/g, '$1\n\n')))
      .join('');
  }
  return autop(text);
}

const BLOCK_DELIMITER = /<!--\s+(\/)?wp:([a-z][a-z0-9_-]*\/)?([a-z][a-z0-9_-]*)(\s+\{[\s\S]*?\})?\s+(\/)?-->/g;

/** Whether the content holds block-editor markup (`has_blocks`). */
function hasBlocks(content: string): boolean {
  return content.includes('<!-- wp:');
}

/**
 * `do_blocks` for static blocks: the block comment delimiters are dropped and the saved markup kept.
 * Dynamic (server-rendered) blocks cannot be rendered here and become empty.
 */
export function doBlocks(content: string): string {
  if (!hasBlocks(content)) return content;
  return content.replace(BLOCK_DELIMITER, '');
}

/** The title as emitted (`the_title` filters, trimmed). */
export function renderTitle(raw: string): string {
  return capitalPDangitTitle(phpTrim(convertChars(texturize(raw))));
}

/** The description as emitted (`the_content` filters, trimmed). */
export function renderContent(raw: string): string {
  const blocks = hasBlocks(raw);
  let html = texturize(doBlocks(raw));
  // do_blocks() unhooks wpautop for content that was written with blocks.
  if (!blocks) html = wpautop(html);
  return phpTrim(capitalPDangit(html));
}

/** The excerpt as emitted: the stored excerpt through `the_excerpt` filters, trimmed; `""` when there is none. */
export function renderExcerpt(raw: string): string {
  if (raw === '') return '';
  return phpTrim(wpautop(convertChars(texturize(raw))));
}
