import { filterHtml } from '../../../text/html-filter.js';
import { sanitizeTextField } from '../../../text/sanitize.js';
import { LIMITS } from '../constants.js';
import { cleanUrlText, rawUrlDecodeStrict } from './encoding.js';

/** WordPress `wp_kses( $text, 'strip' )`: every tag removed, text kept. */
export function stripTags(text: string): string {
  if (!text.includes('<')) return text;
  return filterHtml(text, { allowedTags: [], allowedAttributes: {}, parser: { decodeEntities: false } });
}

/** iconv's //IGNORE: unpaired surrogates (the JavaScript form of bytes that are not UTF-8) dropped. */
function wellFormed(text: string): string {
  return text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '');
}

/**
 * A redirect's source as Redirection stores it (Red_Item_Sanitize::sanitize_url): tags stripped, made relative,
 * cut at the first line break, control characters removed, `/` prefixed unless regex, then percent-decoded when
 * that gives UTF-8, and text-field sanitised.
 */
export function sanitizeSourceUrl(input: string, regex: boolean): string {
  let url = stripTags(input).replace(/&amp;/g, '&');
  url = url.replace(/^https?:\/\/(.*?)\//, '/').replace(/^https?:\/\/(.*?)$/, '/');
  url = cleanUrlText(url);
  if (!url.startsWith('/') && !regex) url = `/${url}`;
  const decoded = rawUrlDecodeStrict(url);
  const text = decoded === null ? url : decoded;
  let out = wellFormed(sanitizeSourceText(text));
  if (regex) out = out.replace(/\?&lt;!/g, '?<!');
  return out;
}

/**
 * WordPress's sanitize_text_field as it acts on a URL: no tags, no line breaks, single spaces, and no `%XX`
 * sequences left over (they were decoded already, or were not UTF-8).
 */
function sanitizeSourceText(text: string): string {
  // sanitize_text_field drops `<` that does not start a tag only when it looks like one; keep regex `(?<name>`.
  return sanitizeTextField(text.replace(/\(\?</g, '(?\uE000')).replace(/\(\?\uE000/g, '(?<');
}

/** A target or other URL-like value of a matcher (Red_Match::sanitize_url): cut at a line break, no control characters. */
export function sanitizeTargetUrl(value: unknown): string {
  return typeof value === 'string' ? cleanUrlText(value.trim()).slice(0, LIMITS.url) : '';
}
