import { autop } from '@wordpress/autop';
import { phpTrim } from '../../../http/php.js';
import { removeBlockDelimiters, splitAtPreElements } from '../../../text/markup-scans.js';
import { boundAutopInput, WHITESPACE, withPreElementsSetAside } from './autop-input.js';
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
 * Text that repeats starts of autop's patterns without their ends is bounded first (autop-input.ts).
 */
export function wpautop(text: string): string {
  text = capWhitespaceRuns(text);
  if (text.includes('<hr')) {
    text = splitAtPreElements(text)
      .map((part, i) => (i % 2 === 1 ? part : part.replace(/(<hr\s*?\/?>)/g, '$1\n\n')))
      .join('');
  }
  // Bounded with the <pre> elements set aside, as autop sets them aside before any of its patterns.
  return withPreElementsSetAside(text, (rest) => autop(boundAutopInput(rest)));
}

/** JavaScript's `\s` but the newline: what autop's `\s*\n` patterns retry from every character of a run. */
const SPACE_BUT_NEWLINE = new Set([...WHITESPACE].filter((code) => code !== 0x0a));

/** Longest run of such whitespace autop is given (see capWhitespaceRuns). */
export const MAX_WHITESPACE_RUN = 256;

/**
 * The text with every run of whitespace without a newline cut to {@link MAX_WHITESPACE_RUN} characters. autop's
 * patterns (`(<br />)?\s*\n` and its kin, PHP's and the JS port's alike) are retried from every character of a
 * run not followed by a newline: quadratic in its length (150,000 spaces held the server for 20 s; PHP gives up at
 * its backtracking limit). Cut, a run costs at most 256² steps; no page shows the difference, and only such runs
 * change (docs/compatibility.md).
 */
export function capWhitespaceRuns(text: string): string {
  let out = '';
  // The start of what is not copied yet; past the end of the last cut run.
  let from = 0;
  let run = 0;
  for (let i = 0; i < text.length; i++) {
    if (!SPACE_BUT_NEWLINE.has(text.charCodeAt(i))) {
      run = 0;
      continue;
    }
    if (++run === MAX_WHITESPACE_RUN + 1) out += text.slice(from, i);
    if (run > MAX_WHITESPACE_RUN) from = i + 1;
  }
  return from === 0 ? text : out + text.slice(from);
}

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
  return removeBlockDelimiters(content);
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
