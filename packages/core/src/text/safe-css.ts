import { phpTrim } from '../http/php.js';
import { ksesBadProtocol, noNull } from './kses-protocols.js';

/**
 * WordPress's `safe_style_css` (7.0): the properties a `style` attribute keeps in content filtered by kses. `--*`
 * stands for any custom property (`--accent`).
 */
const SAFE_PROPERTIES: ReadonlySet<string> = new Set([
  'background', 'background-color', 'background-image', 'background-position', 'background-repeat', 'background-size',
  'background-attachment', 'background-blend-mode',
  'border', 'border-radius', 'border-width', 'border-color', 'border-style', 'border-right', 'border-right-color',
  'border-right-style', 'border-right-width', 'border-bottom', 'border-bottom-color', 'border-bottom-left-radius',
  'border-bottom-right-radius', 'border-bottom-style', 'border-bottom-width', 'border-left', 'border-left-color',
  'border-left-style', 'border-left-width', 'border-top', 'border-top-color', 'border-top-left-radius',
  'border-top-right-radius', 'border-top-style', 'border-top-width',
  'border-spacing', 'border-collapse', 'caption-side',
  'columns', 'column-count', 'column-fill', 'column-gap', 'column-rule', 'column-span', 'column-width',
  'display',
  'color', 'filter', 'font', 'font-family', 'font-size', 'font-style', 'font-variant', 'font-weight', 'letter-spacing',
  'line-height', 'text-align', 'text-decoration', 'text-indent', 'text-transform', 'white-space',
  'height', 'min-height', 'max-height', 'width', 'min-width', 'max-width',
  'margin', 'margin-right', 'margin-bottom', 'margin-left', 'margin-top', 'margin-block-start', 'margin-block-end',
  'margin-inline-start', 'margin-inline-end',
  'padding', 'padding-right', 'padding-bottom', 'padding-left', 'padding-top', 'padding-block-start',
  'padding-block-end', 'padding-inline-start', 'padding-inline-end',
  'flex', 'flex-basis', 'flex-direction', 'flex-flow', 'flex-grow', 'flex-shrink', 'flex-wrap',
  'gap', 'row-gap',
  'grid-template-columns', 'grid-auto-columns', 'grid-column-start', 'grid-column-end', 'grid-column', 'grid-column-gap',
  'grid-template-rows', 'grid-auto-rows', 'grid-row-start', 'grid-row-end', 'grid-row', 'grid-row-gap', 'grid-gap',
  'justify-content', 'justify-items', 'justify-self', 'align-content', 'align-items', 'align-self',
  'clear', 'cursor', 'direction', 'float', 'list-style-type', 'object-fit', 'object-position', 'opacity', 'overflow',
  'vertical-align', 'writing-mode',
  'position', 'top', 'right', 'bottom', 'left', 'z-index', 'box-shadow', 'aspect-ratio', 'container-type',
  '--*',
]);

/** Properties whose value may hold `url(…)` (checked for its scheme), and those that may be a gradient. */
const URL_PROPERTIES: ReadonlySet<string> = new Set(['background', 'background-image', 'cursor', 'filter', 'list-style', 'list-style-image']);
const GRADIENT_PROPERTIES: ReadonlySet<string> = new Set(['background', 'background-image']);

const CUSTOM_PROPERTY = /^--[a-zA-Z0-9-_]+$/;
const URL_PIECES = /^url\(\s*(['"]?)(.*)\1\s*\)$/;
const GRADIENT = /^(repeating-)?(linear|radial|conic)-gradient\(([^()]|rgba?\([^()]*\))*\)$/;
/** A function whose balanced arguments the check leaves alone, at a word boundary (PCRE's `\b`). */
const ALLOWED_FUNCTION = /\b(?:var|calc|min|max|minmax|clamp|repeat)\(/g;
/** What no declaration may hold outside those functions: `\ ( & } =` or a comment's start. */
const UNSAFE = /[\\(&=}]|\/\*/;

/** PHP `empty()` of a string: '' and '0'. */
const phpEmpty = (text: string | undefined) => !text || text === '0';
/**
 * The matches of `/url\([^)]+\)/g` in `text`, found with indexOf: the regex would scan to the end of the text from
 * every `url(` that is never closed.
 */
function urlCalls(text: string): string[] {
  const calls: string[] = [];
  for (let at = text.indexOf('url('); at !== -1; ) {
    const close = text.indexOf(')', at + 4);
    if (close === -1) break;
    if (close === at + 4) {
      at = text.indexOf('url(', at + 1);
      continue;
    }
    calls.push(text.slice(at, close + 1));
    at = text.indexOf('url(', close + 1);
  }
  return calls;
}

/**
 * The index of the `)` that closes each `(` of `text` (-1 for one never closed), from one pass: what PCRE's
 * recursive `\((?:[^()]|(?1))*\)` matches from a `(`, found in linear time however the parentheses nest.
 */
function closingParens(text: string): Int32Array {
  const closing = new Int32Array(text.length).fill(-1);
  const open: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (ch === 0x28) open.push(i);
    else if (ch === 0x29 && open.length) closing[open.pop()!] = i;
  }
  return closing;
}

/** The text without the allowed functions' calls whose parentheses balance (WordPress removes them before its check). */
function withoutAllowedFunctions(text: string): string {
  if (!text.includes('(')) return text;
  const closing = closingParens(text);
  let out = '';
  let from = 0;
  ALLOWED_FUNCTION.lastIndex = 0;
  for (let match = ALLOWED_FUNCTION.exec(text); match; match = ALLOWED_FUNCTION.exec(text)) {
    const paren = match.index + match[0].length - 1;
    const close = closing[paren]!;
    if (close === -1) {
      // Not balanced: no call here; the search goes on from the next character, as PCRE's would.
      ALLOWED_FUNCTION.lastIndex = match.index + 1;
      continue;
    }
    out += text.slice(from, match.index);
    from = close + 1;
    ALLOWED_FUNCTION.lastIndex = from;
  }
  return out + text.slice(from);
}

/**
 * WordPress `safecss_filter_attr`: the declarations of a `style` attribute that kses keeps, joined by `;`. A
 * declaration is kept when its property is in `safe_style_css` (or it has no `:` at all, as WordPress keeps it),
 * its `url(…)`s have allowed schemes, and, once those, a whole gradient and the balanced calls of `var()`,
 * `calc()`, `min()`, `max()`, `minmax()`, `clamp()` and `repeat()` are set aside, it holds none of `\ ( & } =` or
 * `/*`. Linear in the length of the text.
 */
export function safeCss(css: string): string {
  const declarations = phpTrim(noNull(css).replace(/[\n\r\t]/g, '')).split(';');
  const kept: string[] = [];
  for (const declaration of declarations) {
    if (declaration === '') continue;
    const item = phpTrim(declaration);
    let test = item;
    let found = false;
    let urls = false;
    let gradient = false;
    const colon = item.indexOf(':');
    const value = colon === -1 ? '' : item.slice(colon + 1);
    if (colon === -1) {
      found = true;
    } else {
      const property = phpTrim(item.slice(0, colon));
      const custom = CUSTOM_PROPERTY.test(property);
      if (custom || SAFE_PROPERTIES.has(property)) {
        found = true;
        urls = URL_PROPERTIES.has(property);
        gradient = GRADIENT_PROPERTIES.has(property);
      }
      if (custom) {
        const trimmed = phpTrim(value);
        urls = trimmed.startsWith('url(');
        gradient = trimmed.includes('-gradient(');
      }
    }
    if (found && urls) {
      for (const call of urlCalls(value)) {
        const url = URL_PIECES.exec(call)?.[2];
        if (phpEmpty(url) || phpEmpty(phpTrim(url!)) || ksesBadProtocol(phpTrim(url!)) !== phpTrim(url!)) {
          found = false;
          break;
        }
        test = test.split(call).join('');
      }
    }
    if (found && gradient) {
      const trimmed = phpTrim(value);
      if (GRADIENT.test(trimmed)) test = test.split(trimmed).join('');
    }
    if (found && !UNSAFE.test(withoutAllowedFunctions(test))) kept.push(item);
  }
  return kept.join(';');
}
