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
 * The text autop is given: as it is, unless it repeats starts of its patterns that would each read on to the end
 * (see above). Each bound only writes `<` as `&lt;` or `[` as `&#91;`, which can only take away starts and marks, so
 * the bounds that count marks run after the others.
 */
export function boundAutopInput(text: string): string {
  if (!text.includes('<')) return text;
  // The media bound last: it asks whether autop will find a `<source` or `<track`, which the others may write as text.
  return boundUnendedMediaStarts(boundUnclosedRawElements(boundParagraphItems(boundOpeningsBetweenClosings(text))));
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
  return run(out + last).replace(placeholder, (_, index: string) => setAside[Number(index)]!);
}
