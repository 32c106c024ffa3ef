/*
 * WordPress `wptexturize` (wp-includes/formatting.php): curly quotes, apostrophes, primes, dashes, ellipses,
 * the trademark sign and the multiplication sign, as numeric entities. HTML tags, comments, registered
 * shortcodes and the contents of <pre>, <code>, <kbd>, <style>, <script> and <tt> are left alone.
 *
 * WordPress does NOT convert "(c)" or "(r)", and "(tm)" only when preceded by a space (" (tm)").
 */

const OPEN_DOUBLE = '&#8220;';
const CLOSE_DOUBLE = '&#8221;';
const APOSTROPHE = '&#8217;';
const PRIME = '&#8242;';
const DOUBLE_PRIME = '&#8243;';
const OPEN_SINGLE = '&#8216;';
const CLOSE_SINGLE = '&#8217;';
const EN_DASH = '&#8211;';
const EM_DASH = '&#8212;';

/* Placeholders WordPress itself uses (HTML comments, so later patterns never match inside them). */
const OPEN_Q_FLAG = '<!--oq-->';
const OPEN_SQ_FLAG = '<!--osq-->';
const APOS_FLAG = '<!--apos-->';
const PRIME_OR_QUOTE_FLAG = '<!--wp-prime-or-quote-->';

/** `wp_spaces_regexp()`: whitespace, a no-break space (U+00A0) or `&nbsp;`. */
const SP = '(?:[\\r\\n\\t ]|\\u00A0|&nbsp;)';

/** Elements and shortcodes whose contents WordPress never texturizes. */
const NO_TEXTURIZE_TAGS: readonly string[] = ['pre', 'code', 'kbd', 'style', 'script', 'tt'];
const NO_TEXTURIZE_SHORTCODES: readonly string[] = ['code'];

/** Shortcodes registered by a stock WordPress (core media/embed shortcodes). */
const DEFAULT_SHORTCODE_TAGS: readonly string[] = ['wp_caption', 'caption', 'gallery', 'playlist', 'audio', 'video', 'embed'];

const STATIC_REPLACEMENTS: ReadonlyArray<readonly [string, string]> = [
  ['...', '&#8230;'],
  ['``', OPEN_DOUBLE],
  ["''", CLOSE_DOUBLE],
  [' (tm)', ' &#8482;'],
  ...["'tain't", "'twere", "'twas", "'tis", "'twill", "'til", "'bout", "'nuff", "'round", "'cause", "'em"].map(
    (word) => [word, word.replace(/'/g, APOSTROPHE)] as const,
  ),
];

/* The apostrophe patterns, applied in this order to the whole text fragment. */
const APOS_RULES: ReadonlyArray<readonly [RegExp, string]> = [
  // '99' and '99" are taken as an abbreviated year at the end of a quotation.
  [new RegExp(`'(\\d\\d)'(?=\\n?$|[.,:;!?)}\\-\\]]|&gt;|${SP})`, 'g'), `${APOS_FLAG}$1${CLOSE_SINGLE}`],
  [new RegExp(`'(\\d\\d)"(?=\\n?$|[.,:;!?)}\\-\\]]|&gt;|${SP})`, 'g'), `${APOS_FLAG}$1${CLOSE_DOUBLE}`],
  // '99 '99s '99's, but never '9 '99% '999 or '99.0.
  [/'(?=\d\d(?:(?=\n?$)|(?![%\d]|[.,]\d)))/g, APOS_FLAG],
  // Quoted numbers like '0.42'.
  [new RegExp(`(?<=^|${SP})'(\\d[.,\\d]*)'`, 'g'), `${OPEN_SQ_FLAG}$1${CLOSE_SINGLE}`],
  // Single quote at the start, or after ( { [ " - &lt; or a space.
  [new RegExp(`(?<=^|[([{"\\-]|&lt;|${SP})'`, 'g'), OPEN_SQ_FLAG],
  // Apostrophe inside a word.
  [new RegExp(`(?<!${SP})'(?!\\n?$|[.,:;!?"'(){}[\\]\\-]|&[lg]t;|${SP})`, 'g'), APOS_FLAG],
];

const QUOTE_RULES: ReadonlyArray<readonly [RegExp, string]> = [
  // Quoted numbers like "42".
  [new RegExp(`(?<=^|${SP})"(\\d[.,\\d]*)"`, 'g'), `${OPEN_Q_FLAG}$1${CLOSE_DOUBLE}`],
  // Double quote at the start, or after ( { [ - &lt; or a space, and not followed by a space.
  [new RegExp(`(?<=^|[([{\\-]|&lt;|${SP})"(?!${SP})`, 'g'), OPEN_Q_FLAG],
];

const DASH_RULES: ReadonlyArray<readonly [RegExp, string]> = [
  [/---/g, EM_DASH],
  [new RegExp(`(?<=^|${SP})--(?=\\n?$|${SP})`, 'g'), EM_DASH],
  [/(?<!xn)--/g, EN_DASH],
  [new RegExp(`(?<=^|${SP})-(?=\\n?$|${SP})`, 'g'), EN_DASH],
];

/** A lone `&` (not starting something that looks like an entity) becomes `&#038;`. */
const LONE_AMPERSAND = /&(?!#(?:\d+|x[a-f0-9]+);|[a-z1-4]{1,8};)/gi;

/** Comments and tags; an unterminated one runs to the end of the input, as in WordPress. */
const HTML_PART = '<(?:(?=!--)!(?:-(?!->)[^-]*)*(?:-->)?|(?!!--)[^>]*>?)';

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}

/** `_get_wptexturize_shortcode_regex`: only the given (registered and present) shortcodes. */
function shortcodePattern(tags: string[]): string {
  const names = tags.map(escapeRegExp).join('|');
  return `\\[[\\/\\[]?(?:${names})(?=[\\s\\]\\/])(?:[^\\[\\]<>]+|<[^\\[\\]>]*>)*\\]\\]?`;
}

function replaceAll(text: string, rules: ReadonlyArray<readonly [RegExp, string]>): string {
  let out = text;
  for (const [pattern, replacement] of rules) out = out.replace(pattern, replacement);
  return out;
}

/** PHP `trim()` whitespace set. */
function isBlank(text: string): boolean {
  return /^[ \t\n\r\0\x0B]*$/.test(text);
}

/** `_wptexturize_pushpop_element`: track opening/closing of disabled elements (`<pre>`, `[code]`…). */
function pushPop(delimiter: string, stack: string[], disabled: readonly string[]): void {
  let opening: boolean;
  let offset: number;
  if (delimiter.length > 1 && delimiter[1] !== '/') {
    opening = true;
    offset = 1;
  } else if (stack.length === 0) {
    return;
  } else {
    opening = false;
    offset = 2;
  }
  const space = delimiter.indexOf(' ');
  // Without a space the name runs to the last character (which is `>` or `]`).
  const name = space === -1 ? delimiter.slice(offset, -1) : delimiter.slice(offset, space);
  if (!disabled.includes(name)) return;
  if (opening) stack.push(name);
  else if (stack[stack.length - 1] === name) stack.pop();
}

/** `wptexturize_primes`: decide between a prime (9′) and a closing quote for each remaining quote mark. */
function primesAndClosingQuotes(text: string, needle: "'" | '"', prime: string, openQuote: string, closeQuote: string): string {
  const quotePattern = new RegExp(`${needle}(?=\\n?$|[.,:;!?)}\\-\\]]|&gt;|${SP})`, 'g');
  const primePattern = new RegExp(`(?<=\\d)${needle}`, 'g');
  const flagAfterDigit = new RegExp(`(?<=\\d)${escapeRegExp(PRIME_OR_QUOTE_FLAG)}`, 'g');
  const flagNoDigit = new RegExp(`(?<!\\d)${escapeRegExp(PRIME_OR_QUOTE_FLAG)}`, 'g');

  const sentences = text.split(openQuote);
  sentences.forEach((original, key) => {
    let sentence = original;
    if (!sentence.includes(needle)) return;
    if (key !== 0 && !sentence.includes(closeQuote)) {
      let count = 0;
      sentence = sentence.replace(quotePattern, () => {
        count++;
        return PRIME_OR_QUOTE_FLAG;
      });
      if (count > 1) {
        // Several closing-quote candidates: the last one not after a digit closes the quotation.
        let count2 = 0;
        sentence = sentence.replace(flagNoDigit, () => {
          count2++;
          return closeQuote;
        });
        if (count2 === 0) {
          const withPeriod = sentence.lastIndexOf(`${PRIME_OR_QUOTE_FLAG}.`);
          const pos = withPeriod !== -1 ? withPeriod : sentence.lastIndexOf(PRIME_OR_QUOTE_FLAG);
          sentence = sentence.slice(0, pos) + closeQuote + sentence.slice(pos + PRIME_OR_QUOTE_FLAG.length);
        }
        sentence = sentence.replace(primePattern, prime);
        sentence = sentence.replace(flagAfterDigit, prime);
        sentence = sentence.split(PRIME_OR_QUOTE_FLAG).join(closeQuote);
      } else if (count === 1) {
        sentence = sentence.split(PRIME_OR_QUOTE_FLAG).join(closeQuote);
        sentence = sentence.replace(primePattern, prime);
      } else {
        sentence = sentence.replace(primePattern, prime);
      }
    } else {
      sentence = sentence.replace(primePattern, prime);
      sentence = sentence.replace(quotePattern, closeQuote);
    }
    if (needle === '"' && sentence.includes('"')) sentence = sentence.split('"').join(closeQuote);
    sentences[key] = sentence;
  });
  return sentences.join(openQuote);
}

/** Texturizes one run of plain text (no tags). */
function texturizeText(input: string): string {
  let text = input;
  for (const [from, to] of STATIC_REPLACEMENTS) text = text.split(from).join(to);

  if (text.includes("'")) {
    text = replaceAll(text, APOS_RULES);
    text = primesAndClosingQuotes(text, "'", PRIME, OPEN_SQ_FLAG, CLOSE_SINGLE);
    text = text.split(APOS_FLAG).join(APOSTROPHE).split(OPEN_SQ_FLAG).join(OPEN_SINGLE);
  }
  if (text.includes('"')) {
    text = replaceAll(text, QUOTE_RULES);
    text = primesAndClosingQuotes(text, '"', DOUBLE_PRIME, OPEN_Q_FLAG, CLOSE_DOUBLE);
    text = text.split(OPEN_Q_FLAG).join(OPEN_DOUBLE);
  }
  if (text.includes('-')) text = replaceAll(text, DASH_RULES);

  // 9x9 (times), but never 0x9999.
  if (/(?<=\d)x\d/.test(text)) {
    text = text.replace(/\b(0[\d.,]+|[1-9][\d.,]*)x(\d[\d.,]*)\b/g, '$1&#215;$2');
  }
  return text.replace(LONE_AMPERSAND, '&#038;');
}

export interface TexturizeOptions {
  /** Shortcodes registered on the site (only those are treated as delimiters). */
  shortcodeTags?: readonly string[];
  /** Shortcodes whose contents are left alone (`no_texturize_shortcodes`; WordPress: `code`). */
  noTexturizeShortcodes?: readonly string[];
}

/** WordPress `wptexturize()`. */
export function texturize(text: string, options: TexturizeOptions = {}): string {
  if (!text) return text;
  const registered = options.shortcodeTags ?? DEFAULT_SHORTCODE_TAGS;

  const present = new Set<string>();
  for (const match of text.matchAll(/\[\/?([^<>&/[\]\x00-\x20=]+)/g)) present.add(match[1]!);
  const found = registered.filter((tag) => present.has(tag));
  const shortcode = found.length > 0 ? shortcodePattern(found) : '';
  const split = new RegExp(`(${HTML_PART}${shortcode ? `|${shortcode}` : ''})`);
  const wholeShortcode = shortcode ? new RegExp(`^${shortcode}$`) : null;

  const tagStack: string[] = [];
  const shortcodeStack: string[] = [];
  const parts = text.split(split).filter((part) => part !== '');

  return parts
    .map((part) => {
      const first = part[0];
      if (first === '<') {
        if (part.startsWith('<!--')) return part;
        const element = part.replace(LONE_AMPERSAND, '&#038;');
        pushPop(element, tagStack, NO_TEXTURIZE_TAGS);
        return element;
      }
      if (isBlank(part)) return part;
      if (first === '[' && wholeShortcode && wholeShortcode.test(part)) {
        if (!part.startsWith('[[') && !part.endsWith(']]')) pushPop(part, shortcodeStack, options.noTexturizeShortcodes ?? NO_TEXTURIZE_SHORTCODES);
        return part;
      }
      if (tagStack.length === 0 && shortcodeStack.length === 0) return texturizeText(part);
      return part;
    })
    .join('');
}
