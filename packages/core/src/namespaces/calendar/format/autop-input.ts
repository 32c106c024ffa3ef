/*
 * Four of `@wordpress/autop`'s patterns read from each place they may start to a mark that may not come: the
 * next `>` (or `]`), the end of the line, the element's closing. Where the mark is missing, each start reads on to
 * the end, so text that repeats such a start costs the square of its length (100,000 characters: up to 4 s, on each
 * read of a description). PHP's wpautop has the same patterns and gives up at PCRE's backtracking limit. Each bound
 * below leaves the first few such starts as they are and writes the `<` (or `[`) of the others as an entity: they
 * then read as text, as the markup could not be anything else (docs/compatibility.md). Text that repeats none of
 * them passes unchanged.
 */

/** How many starts of one kind autop is given where each would read on without its mark. */
export const MAX_UNENDED_STARTS = 32;

const LT = 0x3c;
const GT = 0x3e;

/** The text with the character at each of the positions (ascending), a `<` unless said, written as `entity`. */
function escapeAt(text: string, positions: readonly number[], entity = '&lt;'): string {
  if (positions.length === 0) return text;
  let out = '';
  let from = 0;
  for (const at of positions) {
    out += text.slice(from, at) + entity;
    from = at + 1;
  }
  return out + text.slice(from);
}

/**
 * Block tags are read as `<div[^>]*>` and the like (`(</?(?:table|…|div|…)[^>]*>)\s*<br />`), from each `<` to
 * the next `>`: between two `>`, only the first {@link MAX_UNENDED_STARTS} `<` are kept.
 */
function boundOpeningsBetweenClosings(text: string): string {
  const escaped: number[] = [];
  let since = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === GT) since = 0;
    else if (code === LT && ++since > MAX_UNENDED_STARTS) escaped.push(i);
  }
  return escapeAt(text, escaped);
}

/**
 * `<p>(<li.+?)<\/p>` reads from each `<p><li` to the end of its line when no `</p>` follows on it. Only the
 * author's own `<p><li` can repeat within a line (autop opens one paragraph per line it makes), and only where
 * no space, `/` or `>` follows `li` (autop starts a new paragraph before `<li>`, `<li class…`): of those, only the
 * first {@link MAX_UNENDED_STARTS} are kept.
 */
function boundParagraphItems(text: string): string {
  const escaped: number[] = [];
  let seen = 0;
  for (let at = text.indexOf('<p><li'); at >= 0; at = text.indexOf('<p><li', at + 6)) {
    const next = text.charAt(at + 6);
    if (next === '/' || next === '>' || (next !== '' && next.trim() === '')) continue;
    if (++seen > MAX_UNENDED_STARTS) escaped.push(at + 3);
  }
  return escapeAt(text, escaped);
}

const RAW_ELEMENTS = ['script', 'style', 'svg', 'math'] as const;

/**
 * `<(script|style|svg|math)[\s\S]*?<\/\1>` reads from each such opening to its closing, and to the end of the
 * text when none follows: of the openings that no closing of their name follows, the first
 * {@link MAX_UNENDED_STARTS} are kept.
 */
function boundUnclosedRawElements(text: string): string {
  const escaped: number[] = [];
  let seen = 0;
  const lastClosings = RAW_ELEMENTS.map((name) => text.lastIndexOf(`</${name}>`));
  for (let at = text.indexOf('<'); at >= 0; at = text.indexOf('<', at + 1)) {
    const kind = RAW_ELEMENTS.findIndex((name) => text.startsWith(name, at + 1));
    if (kind >= 0 && at > lastClosings[kind]! && ++seen > MAX_UNENDED_STARTS) escaped.push(at);
  }
  return escapeAt(text, escaped);
}

/**
 * `[<\[](?:audio|video)[^>\]]*[>\]]`, run when the text holds `<source` or `<track`, reads from each start to the
 * next `>` or `]`; a start that one follows is matched with everything up to it, but after the last of them each
 * start reads on to the end. Of the `[audio` and `[video` there, the first {@link MAX_UNENDED_STARTS} are kept and
 * the `[` of the others is written `&#91;` (the same character to a browser). Those starting with `<` are bounded
 * with the other openings.
 */
function boundUnendedMediaStarts(text: string): string {
  if (!text.includes('<source') && !text.includes('<track')) return text;
  const escaped: number[] = [];
  let seen = 0;
  const afterLastMark = Math.max(text.lastIndexOf('>'), text.lastIndexOf(']')) + 1;
  for (let at = text.indexOf('[', afterLastMark); at >= 0; at = text.indexOf('[', at + 1)) {
    const media = text.startsWith('audio', at + 1) || text.startsWith('video', at + 1);
    if (media && ++seen > MAX_UNENDED_STARTS) escaped.push(at);
  }
  return escapeAt(text, escaped, '&#91;');
}

/**
 * The text autop is given, its `<pre>` elements set aside (withPreElementsSetAside): as it is, unless it repeats
 * starts of autop's patterns that would each read on to the end (see above) or holds long runs of line breaks (see
 * collapseParagraphBreaks). autop's first step is taken first, so that the others read what autop's patterns read.
 * Each bound only writes `<` as `&lt;` or `[` as `&#91;`, which can only take away starts and marks, so the bounds
 * that count marks run after the others.
 */
export function boundAutopInput(text: string): string {
  if (!text.includes('<')) return collapseParagraphBreaks(text);
  const bounded = boundUnclosedRawElements(boundParagraphItems(boundOpeningsBetweenClosings(joinBreakPairs(text))));
  // The media bound last: it asks whether autop will find a `<source` or `<track`, which the others may write as text.
  return collapseParagraphBreaks(boundUnendedMediaStarts(bounded));
}

/** A pair of line-break tags, white space between them. */
const BREAK_PAIR = /<br\s*\/?>\s*<br\s*\/?>/g;

/**
 * autop's first step, each pair of `<br>` tags written as a blank line, taken before autop: a run of `<br><br>`
 * becomes a run of line breaks only then, and the bounds and collapseParagraphBreaks must read it (17,000 ` <br />`
 * after an `</object>` took 1.2 s). autop takes the step again and finds no pair left, unless the step itself made
 * one: a `<br` before a pair and a `/>` after it join into a tag (`<br<br><br>/><br>`). Those pairs, which autop
 * would keep as tags where WordPress keeps them too, are written as text, `&lt;br`, rather than joined twice
 * (docs/compatibility.md).
 */
export function joinBreakPairs(text: string): string {
  if (!text.includes('<br')) return text;
  const joined = text.replace(BREAK_PAIR, '\n\n');
  // autop answers nothing for blank text, and asks before its first step: text of pairs and white space alone is
  // left to it (it holds no tag that autop's slow patterns need).
  if (joined.trim() === '') return text;
  if (!joined.includes('<br') || joined.search(BREAK_PAIR) < 0) return joined;
  return joined.replace(BREAK_PAIR, (pair) => pair.replaceAll('<', '&lt;'));
}

/** The marker autop writes for a line break in a tag. */
const WPNL = '<!-- wpnl -->';

/** JavaScript's `\s`, autop's white space. */
export const WHITESPACE: ReadonlySet<number> = new Set([
  0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20, 0xa0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009,
  0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff,
]);
const CR = 0x0d;
const LF = 0x0a;

/** Longest run of white space holding line breaks that autop is given as it is (see collapseParagraphBreaks). */
const MAX_BREAKING_RUN = 256;

/** Where the tag, comment or CDATA section opening at `at` ends, as autop's htmlSplit reads them. */
function endOfMarkup(text: string, at: number): number {
  let end: number;
  if (text.startsWith('<!--', at)) {
    end = text.indexOf('-->', at + 2);
    return end < 0 ? text.length : end + 3;
  }
  if (text.startsWith('<![CDATA[', at)) {
    end = text.indexOf(']', at + 9);
    return end < 0 ? text.length : text.startsWith(']]>', end) ? end + 3 : end;
  }
  end = text.indexOf('>', at + 1);
  return end < 0 ? text.length : end + 1;
}

/**
 * autop's patterns that begin with `\s*` (`\s*<option`, `\s*(<(?:source|track)[^>]*>)\s*` and their kin, run when
 * the text holds such a tag) retry from every character of a run of white space their tag does not follow:
 * quadratic in the run (60,000 characters of " \n" after a `<source>`: 3.5 s; runs without a line break are cut
 * before, see capWhitespaceRuns). A run holding two line breaks or more ends a paragraph whatever lies between its
 * first and last break: autop splits the text at `\n\s*\n`, and those patterns take whole runs. So in a run longer
 * than `longest`, that part is given as one blank line, `\n\n`, and autop's answer is the same. Runs in tags and
 * comments are left as they are: autop keeps the line breaks in them.
 */
export function collapseParagraphBreaks(text: string, longest = MAX_BREAKING_RUN): string {
  let out = '';
  // The start of what is not copied yet: past the end of the last collapsed run.
  let from = 0;
  let i = 0;
  while (i < text.length) {
    const code = text.charCodeAt(i);
    if (code === LT) {
      i = endOfMarkup(text, i);
      continue;
    }
    if (!WHITESPACE.has(code)) {
      i++;
      continue;
    }
    const start = i;
    let breaks = 0;
    let firstBreak = -1;
    let afterLastBreak = -1;
    for (; i < text.length && WHITESPACE.has(text.charCodeAt(i)); i++) {
      const c = text.charCodeAt(i);
      if (c !== CR && c !== LF) continue;
      // "\r\n" is one break, as autop reads it (it writes every "\r\n" and "\r" as "\n").
      if (!(c === LF && i > start && text.charCodeAt(i - 1) === CR)) breaks++;
      if (firstBreak < 0) firstBreak = i;
      afterLastBreak = i + 1;
    }
    if (i - start > longest && breaks >= 2) {
      out += `${text.slice(from, firstBreak)}\n\n`;
      from = afterLastBreak;
    }
  }
  return from === 0 ? text : out + text.slice(from);
}

/**
 * `run` (autop) over the text with its `<pre>` elements set aside as autop sets them aside, and put back in one
 * pass. autop puts each back with its own search from the start of the text (`text.replace(name, …)`), so the
 * cost grows with the number of elements times the length: 100,000 characters of `<pre</pre>` took 9 s. Set
 * aside here, autop finds no `<pre` and skips its own.
 *
 * The same steps as autop's: the text is cut at each `</pre>`; a piece holding `<pre` keeps what comes before it
 * and the rest, with its `</pre>`, is set aside; a piece without one loses the `</pre>` it was cut at. Each element
 * set aside stands as an empty `<dl …></dl>`, which every autop rule treats as it treats autop's own
 * `<pre wp-pre-tag-N></pre>` (both names are block tags and are listed together wherever one is).
 */
export function withPreElementsSetAside(text: string, run: (text: string) => string): string {
  if (!text.includes('<pre')) return run(text);
  let marker = 'siterest-pre';
  while (text.includes(marker)) marker += '-';
  const pieces = text.split('</pre>');
  const last = pieces.pop()!;
  const setAside: string[] = [];
  let out = '';
  for (const piece of pieces) {
    const start = piece.indexOf('<pre');
    if (start < 0) {
      out += piece;
      continue;
    }
    out += `${piece.slice(0, start)}<dl ${marker}="${setAside.length}"></dl>`;
    setAside.push(`${piece.slice(start)}</pre>`);
  }
  if (setAside.length === 0) return run(out + last);
  const placeholder = new RegExp(`<dl ${marker}="(\\d+)"></dl>`, 'g');
  const restored = run(out + last).replace(placeholder, (_, index: string) => setAside[Number(index)]!);
  // autop writes its markers of line breaks in tags back as line breaks after it has put the <pre> elements back:
  // a marker written in one of them (the text `<!-- wpnl -->`) becomes a line break too.
  return restored.includes(WPNL) ? restored.replace(/\s?<!-- wpnl -->\s?/g, '\n') : restored;
}
