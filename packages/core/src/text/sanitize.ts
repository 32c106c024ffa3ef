import type sanitizeHtml from 'sanitize-html';
import { filterHtml } from './html-filter.js';
import { ALLOWED_PROTOCOLS, ksesBadProtocol, URI_ATTRIBUTES } from './kses-protocols.js';
import { safeCss } from './safe-css.js';

/*
 * WordPress's text filters, as they shape what is stored and shown. They are WordPress-specific rules (what a
 * slug looks like, which tags a term description keeps), so they are reproduced here; HTML parsing and
 * filtering itself is done by sanitize-html.
 */

/**
 * kses's checks of attribute values. Every URL attribute goes through its protocol check: sanitize-html checks
 * schemes too, but on the text as written (entities are kept as they are), so `&#106;avascript:` would pass it;
 * kses decodes first. A `style` keeps only the declarations `safecss_filter_attr` keeps, and goes when none is
 * left (PHP's `empty()`: '' or '0').
 */
export const checkAttributes: sanitizeHtml.Transformer = (tagName, attribs) => {
  // Attribute names come from the author: kept in an object without a prototype, so `__proto__` is a name like any.
  const checked: sanitizeHtml.Attributes = Object.create(null) as sanitizeHtml.Attributes;
  for (const [name, value] of Object.entries(attribs)) {
    if (Object.hasOwn(checked, name)) continue;
    const lower = name.toLowerCase();
    if (lower === 'style') {
      const css = safeCss(value);
      if (css !== '' && css !== '0') checked[name] = css;
      continue;
    }
    checked[name] = URI_ATTRIBUTES.has(lower) ? ksesBadProtocol(value) : value;
  }
  return { tagName, attribs: checked };
};

/** WordPress `$allowedtags`: the inline tags kept in term descriptions and other short texts. */
const ALLOWED_TAGS: sanitizeHtml.IOptions = {
  allowedTags: ['a', 'abbr', 'acronym', 'b', 'blockquote', 'cite', 'code', 'del', 'em', 'i', 'q', 's', 'strike', 'strong'],
  allowedAttributes: {
    a: ['href', 'title'],
    abbr: ['title'],
    acronym: ['title'],
    blockquote: ['cite'],
    del: ['datetime'],
    q: ['cite'],
  },
  allowedSchemes: [...ALLOWED_PROTOCOLS],
  transformTags: { '*': checkAttributes },
  disallowedTagsMode: 'discard',
  parser: { decodeEntities: false },
  // A kept style is as kses leaves it (checkAttributes), not re-serialized by postcss (`color: red` → `color:red`).
  parseStyleAttributes: false,
};

/** WordPress `$allowedposttags` (the common part): what post content keeps for users without unfiltered_html. */
const ALLOWED_POST_TAGS: sanitizeHtml.IOptions = {
  ...ALLOWED_TAGS,
  allowedTags: [
    ...(ALLOWED_TAGS.allowedTags as string[]),
    'address', 'article', 'aside', 'big', 'br', 'button', 'caption', 'col', 'colgroup', 'dd', 'details', 'div', 'dl',
    'dt', 'figcaption', 'figure', 'footer', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hr', 'img', 'ins', 'kbd',
    'li', 'main', 'mark', 'nav', 'ol', 'p', 'pre', 'section', 'small', 'span', 'sub', 'summary', 'sup', 'table',
    'tbody', 'td', 'tfoot', 'th', 'thead', 'time', 'tr', 'u', 'ul', 'var', 'audio', 'video', 'source', 'track',
  ],
  allowedAttributes: {
    ...(ALLOWED_TAGS.allowedAttributes as Record<string, string[]>),
    '*': ['class', 'id', 'style', 'title', 'role', 'dir', 'lang', 'aria-*', 'data-*'],
    a: ['href', 'title', 'rel', 'rev', 'name', 'target', 'download', 'hreflang'],
    img: ['alt', 'src', 'srcset', 'sizes', 'width', 'height', 'loading', 'decoding'],
    td: ['colspan', 'rowspan', 'headers', 'align', 'valign'],
    th: ['colspan', 'rowspan', 'headers', 'scope', 'align', 'valign'],
    time: ['datetime'],
    ol: ['start', 'reversed', 'type'],
    audio: ['src', 'controls', 'loop', 'muted', 'preload'],
    video: ['src', 'controls', 'loop', 'muted', 'preload', 'poster', 'width', 'height', 'playsinline'],
    source: ['src', 'type'],
    track: ['src', 'kind', 'srclang', 'label', 'default'],
  },
};

/** `wp_filter_kses`: keep only the short inline tags; bare ampersands become `&amp;`. */
export function ksesShort(html: string): string {
  return filterHtml(html, ALLOWED_TAGS);
}

/** `wp_filter_post_kses`: post content for users without the unfiltered_html capability. */
export function ksesPost(html: string): string {
  return filterHtml(html, ALLOWED_POST_TAGS);
}

/** `_wp_specialchars` without double encoding: `&`, `<`, `>` escaped, existing entities kept. */
export function specialChars(text: string): string {
  return text
    .replace(/&(?!(?:#\d+|#x[\da-f]+|[a-z][a-z\d]*);)/gi, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}

/** `esc_attr`: `&` (unless it starts an entity), `<`, `>`, `"` and `'` escaped for an attribute value. */
export function escAttr(text: string): string {
  return specialChars(text).replace(/"/g, '&quot;').replace(/'/g, '&#039;');
}

/** `sanitize_text_field`: no tags, no line breaks or tabs, single spaces, trimmed. */
export function sanitizeTextField(value: string): string {
  let text = value.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/g, '');
  if (text.includes('<')) {
    text = filterHtml(text, { allowedTags: [], allowedAttributes: {}, parser: { decodeEntities: false } });
    text = text.replace(/&lt;/g, '<').replace(/&gt;/g, '>');
  }
  text = text.replace(/%[a-f0-9]{2}/gi, '');
  return text.replace(/[\r\n\t ]+/g, ' ').trim();
}

/** A term name as WordPress stores it (pre_term_name filters). */
export function sanitizeTermName(name: string): string {
  return specialChars(ksesShort(sanitizeTextField(name)));
}

const SPECIAL_LATIN: Record<string, string> = {
  ß: 'ss', æ: 'ae', Æ: 'AE', ø: 'o', Ø: 'O', œ: 'oe', Œ: 'OE', đ: 'd', Đ: 'D', ł: 'l', Ł: 'L', þ: 'th', Þ: 'TH',
  ð: 'd', Ð: 'D', ı: 'i', ŀ: 'l', ŉ: 'n', ŋ: 'n', ŧ: 't', ſ: 's', ĸ: 'k',
};

/** WordPress `remove_accents`: Latin letters lose their diacritics. */
export function removeAccents(text: string): string {
  return text
    .replace(/[ßæÆøØœŒđĐłŁþÞðÐıŀŉŋŧſĸ]/g, (ch) => SPECIAL_LATIN[ch] ?? ch)
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .normalize('NFC');
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** The text with every lone surrogate replaced by U+FFFD (`String.prototype.toWellFormed`, ES2024). */
export function wellFormed(text: string): string {
  return text.replace(LONE_SURROGATE, '\uFFFD');
}

/**
 * PHP `strip_tags` as far as slugs need it: everything from a `<` to the next `>` goes, and an unclosed `<`
 * takes the rest of the text with it. One pass (a regex would rescan the rest of the text at every `<`).
 */
function stripTags(text: string): string {
  let out = '';
  let from = 0;
  for (;;) {
    const open = text.indexOf('<', from);
    if (open === -1) return out + text.slice(from);
    out += text.slice(from, open);
    const close = text.indexOf('>', open + 1);
    if (close === -1) return out;
    from = close + 1;
  }
}

/** WordPress's `preg_replace( '/&.+?;/', '', … )` (entities killed), in one pass: no `;` left means no more matches. */
function killEntities(text: string): string {
  let out = '';
  let from = 0;
  for (;;) {
    const amp = text.indexOf('&', from);
    if (amp === -1) return out + text.slice(from);
    const semicolon = text.indexOf(';', amp + 2);
    if (semicolon === -1) return out + text.slice(from);
    out += text.slice(from, amp);
    from = semicolon + 1;
  }
}

/**
 * WordPress `sanitize_title` (with dashes): the slug a title gets. Non-Latin letters are kept percent-encoded,
 * as WordPress keeps them. Every step is linear in the length of the title.
 */
export function sanitizeTitle(title: string): string {
  // Lone surrogates (never valid UTF-8, so never in a PHP string) become U+FFFD before they are encoded.
  let slug = removeAccents(stripTags(wellFormed(title)));
  slug = slug.replace(/%([a-fA-F0-9][a-fA-F0-9])/g, '---$1---');
  slug = slug.replace(/%/g, '').replace(/---([a-fA-F0-9][a-fA-F0-9])---/g, '%$1');
  slug = killEntities(
    slug
      .replace(/[\u0080-\u{10ffff}]/gu, (ch) => encodeURIComponent(ch).toLowerCase())
      .toLowerCase(),
  )
    .replace(/\./g, '-')
    .replace(/[^%a-z0-9 _-]/g, '')
    .replace(/\s+/g, '-')
    .replace(/-+/g, '-')
    .replace(/^-+|-+$/g, '');
  return slug;
}

/** The longest slug WordPress stores (`post_name` and `slug` are `varchar(200)`). */
export const SLUG_MAX_LENGTH = 200;

/** One character of a slug: a percent-encoded UTF-8 sequence (lead byte and continuation bytes) or one character. */
const SLUG_CHARACTER = /%[0-9a-f]{2}(?:%[89ab][0-9a-f])*|[^]/gi;

/**
 * WordPress `_truncate_post_slug`: at most `length` characters, never cutting a percent-encoded character in
 * half. Linear.
 */
export function truncateSlug(slug: string, length = SLUG_MAX_LENGTH): string {
  if (slug.length <= length) return slug;
  let out = '';
  for (const [character] of slug.matchAll(SLUG_CHARACTER)) {
    if (out.length + character.length > length) break;
    out += character;
  }
  return out;
}
