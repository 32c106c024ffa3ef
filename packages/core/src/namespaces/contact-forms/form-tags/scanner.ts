import { phpTrim } from '../../../http/php.js';
import { isTagType, LONGEST_TYPE, tagSupports } from './types.js';

/** A scanned form-tag, as Contact Form 7's WPCF7_FormTag holds it. */
export interface FormTag {
  type: string;
  basetype: string;
  rawName: string;
  name: string;
  options: string[];
  rawValues: string[];
  values: string[];
  labels: string[];
  /** [before, after] pairs of the values (`label|value`); null when the attributes could not be parsed. */
  pipes: Array<[string, string]> | null;
  /** The attribute text, when it could not be parsed into options and values. */
  attr: string;
  content: string;
}

const WS = new Set(['\r', '\n', '\t', ' ']);
const OPTION_CHAR = /[-+*=0-9a-zA-Z:.!?#$&@_/|%\r\n\t ]/;
const NAME = /^[A-Za-z][-A-Za-z0-9_:.]*$/;

/** `wpcf7_is_name`: HTML 4 NAME tokens. */
export function isName(text: string): boolean {
  return NAME.test(text);
}

/**
 * Finds every form-tag in a form template, in order, as Contact Form 7's tag regex does:
 * `(\[?)\[(type)(?:[\r\n\t ](.*?))?(?:[\r\n\t ](\/))?\](?:([^[]*?)\[\/\2\])?(\]?)` — written as a single pass
 * over precomputed "next `]`" and "next `[`" positions, so it is linear in the template's length whatever the
 * template holds (the regex is quadratic on unclosed tags). `[[tag]]` escapes a tag.
 */
export function scanFormTags(content: string): FormTag[] {
  const n = content.length;
  const nextClose = new Int32Array(n + 1);
  const nextOpen = new Int32Array(n + 1);
  nextClose[n] = -1;
  nextOpen[n] = -1;
  for (let i = n - 1; i >= 0; i--) {
    nextClose[i] = content[i] === ']' ? i : nextClose[i + 1]!;
    nextOpen[i] = content[i] === '[' ? i : nextOpen[i + 1]!;
  }
  const tags: FormTag[] = [];
  let p = 0;
  while (p < n) {
    const open = nextOpen[p]!;
    if (open === -1) break;
    const match = matchAt(content, open, nextClose, nextOpen);
    if (!match) {
      p = open + 1;
      continue;
    }
    p = match.end;
    if (match.escaped) continue;
    const tag = buildTag(match.type, match.attr, match.content);
    if (tag) tags.push(tag);
  }
  return tags;
}

interface RawMatch {
  type: string;
  attr: string;
  content: string;
  escaped: boolean;
  end: number;
}

function matchAt(s: string, open: number, nextClose: Int32Array, nextOpen: Int32Array): RawMatch | null {
  const doubled = s[open + 1] === '[';
  const typeStart = doubled ? open + 2 : open + 1;
  // The type is a registered name followed by white space or `]`.
  let typeEnd = -1;
  for (let i = typeStart; i < s.length && i - typeStart <= LONGEST_TYPE; i++) {
    const c = s[i]!;
    if (WS.has(c) || c === ']') {
      if (isTagType(s.slice(typeStart, i))) typeEnd = i;
      break;
    }
  }
  if (typeEnd === -1) return null;
  const type = s.slice(typeStart, typeEnd);
  let close: number;
  let attr = '';
  if (s[typeEnd] === ']') {
    close = typeEnd;
  } else {
    close = nextClose[typeEnd]!;
    if (close === -1) return null;
    // The lazy attribute group stops before a "<white space>/]" ending if there is one.
    let attrEnd = close;
    if (close - 2 > typeEnd && s[close - 1] === '/' && WS.has(s[close - 2]!)) attrEnd = close - 2;
    attr = s.slice(typeEnd + 1, attrEnd);
  }
  let end = close + 1;
  let body = '';
  const nextBracket = nextOpen[end] ?? -1;
  if (nextBracket !== -1) {
    const closing = `[/${type}]`;
    if (s.startsWith(closing, nextBracket)) {
      body = s.slice(end, nextBracket);
      end = nextBracket + closing.length;
    }
  }
  const trailing = s[end] === ']';
  if (trailing) end++;
  if (doubled && trailing) return { type, attr, content: body, escaped: true, end };
  // `[[tag]` without the closing twin: the first `[` is plain text, the tag starts at the second.
  return { type, attr, content: body, escaped: false, end };
}

interface ParsedAtts {
  options: string[];
  values: string[];
}

/** WPCF7_FormTagsManager::parse_atts: options, then quoted values; anything else leaves the text unparsed. */
function parseAtts(text: string): ParsedAtts | string {
  const cleaned = phpTrim(text.replace(/[\u00a0\u200b]+/g, ' '));
  let k = 0;
  while (k < cleaned.length && OPTION_CHAR.test(cleaned[k]!)) k++;
  const values: string[] = [];
  let i = k;
  while (i < cleaned.length) {
    while (i < cleaned.length && WS.has(cleaned[i]!)) i++;
    if (i >= cleaned.length) break;
    const quote = cleaned[i]!;
    if (quote !== '"' && quote !== "'") return cleaned;
    const closing = cleaned.indexOf(quote, i + 1);
    if (closing === -1) return cleaned;
    values.push(cleaned.slice(i + 1, closing));
    i = closing + 1;
  }
  const optionText = phpTrim(cleaned.slice(0, k));
  // PHP's empty() treats "0" as empty.
  const options = optionText !== '' && optionText !== '0' ? optionText.split(/[\r\n\t ]+/) : [];
  return { options, values };
}

function stripTrailingBreaks(content: string): string {
  return content
    .split('\n')
    .map((line) => line.replace(/<br[\r\n\t ]*\/?>$/, ''))
    .join('\n');
}

function pipe(text: string): [string, string] {
  const bar = text.indexOf('|');
  return bar === -1 ? [phpTrim(text), phpTrim(text)] : [phpTrim(text.slice(0, bar)), phpTrim(text.slice(bar + 1))];
}

function buildTag(type: string, attrText: string, content: string): FormTag | null {
  const tag: FormTag = {
    type,
    basetype: phpTrim(type, '*'),
    rawName: '',
    name: '',
    options: [],
    rawValues: [],
    values: [],
    labels: [],
    pipes: null,
    attr: '',
    content: '',
  };
  const atts = parseAtts(attrText);
  if (typeof atts === 'string') {
    tag.attr = atts;
  } else {
    const options = [...atts.options];
    if (tagSupports(type, 'name-attr') && options.length) {
      tag.rawName = options.shift()!;
      if (!isName(tag.rawName)) return null;
      tag.name = tag.rawName.replace(/\./g, '_');
    }
    tag.options = options;
    tag.rawValues = atts.values;
    tag.pipes = atts.values.map(pipe);
    tag.values = tag.pipes.map(([before]) => before);
    tag.labels = [...tag.values];
  }
  tag.content = stripTrailingBreaks(phpTrim(content));
  return tag;
}
