/**
 * Linear-time versions of the patterns that find a piece of markup by its opening and the first closing after it
 * (`<[^>]*>`, `<pre[\s\S]*?<\/pre>`, …). A backtracking engine retries such a pattern from every opening that no
 * closing follows, each time reading to the end of the text: stored content made of one opening repeated
 * (`<` 200,000 times) held the server for 24 s, and a 10 MB body for hours. Each function here gives what its
 * pattern gives (the tests hold them to it) but reads the text a bounded number of times: an opening with no
 * closing after it ends the search, and the next closing after a position is remembered instead of searched again.
 */

/** JavaScript's line terminators: what `.` does not match. */
function isLineTerminator(code: number): boolean {
  return code === 0x0a || code === 0x0d || code === 0x2028 || code === 0x2029;
}

/** `text.replace(/<[^>]*>/g, '')`. */
export function removeAngleTags(text: string): string {
  let out = '';
  let from = 0;
  for (let open = text.indexOf('<'); open !== -1; open = text.indexOf('<', from)) {
    const close = text.indexOf('>', open + 1);
    // No '>' after this '<': none after any later '<' either.
    if (close === -1) break;
    out += text.slice(from, open);
    from = close + 1;
  }
  return from === 0 ? text : out + text.slice(from);
}

/** `/<[^>]*>/.test(text)`. */
export function hasAngleTag(text: string): boolean {
  const open = text.indexOf('<');
  return open !== -1 && text.indexOf('>', open + 1) !== -1;
}

/** `text.replace(/\[.+?\]/g, '')` (PCRE's `#\[.+\]#U`: shortest, at least one character, within a line). */
export function removeBracketed(text: string): string {
  let out = '';
  let from = 0;
  let open = text.indexOf('[');
  while (open !== -1) {
    // `.+?` takes at least the next character, which must not end the line; then the first ']' on the line.
    if (open + 1 >= text.length || isLineTerminator(text.charCodeAt(open + 1))) {
      open = text.indexOf('[', open + 1);
      continue;
    }
    let close = open + 2;
    while (close < text.length && text.charCodeAt(close) !== 0x5d && !isLineTerminator(text.charCodeAt(close))) close++;
    if (close < text.length && text.charCodeAt(close) === 0x5d) {
      out += text.slice(from, open);
      from = close + 1;
      open = text.indexOf('[', from);
      continue;
    }
    // The line (or the text) ended with no ']' from open + 2 on: no '[' before that end can close either.
    open = close >= text.length ? -1 : text.indexOf('[', close + 1);
  }
  return from === 0 ? text : out + text.slice(from);
}

/**
 * The first match of `pattern` (global) at or after each asked position, for positions asked in increasing order:
 * a match found is kept while it is still ahead, and a search that found none answers every later position.
 */
function nextMatches(text: string, pattern: RegExp): (at: number) => RegExpExecArray | null {
  let found: RegExpExecArray | null = null;
  let exhausted = false;
  return (at) => {
    if (exhausted) return null;
    if (found && found.index >= at) return found;
    pattern.lastIndex = at;
    found = pattern.exec(text);
    if (!found) exhausted = true;
    return found;
  };
}

/** `html.replace(/<(script|style)[^>]*?>[\s\S]*?<\/\1>/gi, '')`: wp_strip_all_tags' first step. */
export function removeScriptAndStyle(html: string): string {
  const opening = /<(script|style)/gi;
  const closings = { script: nextMatches(html, /<\/script>/gi), style: nextMatches(html, /<\/style>/gi) };
  let out = '';
  let from = 0;
  for (let match = opening.exec(html); match; match = opening.exec(html)) {
    const start = match.index;
    const tagEnd = html.indexOf('>', start + match[0].length);
    // No '>' after this opening: none after any later one either.
    if (tagEnd === -1) break;
    const closing = closings[match[1]!.toLowerCase() as 'script' | 'style'](tagEnd + 1);
    if (!closing) {
      opening.lastIndex = start + 1;
      continue;
    }
    out += html.slice(from, start);
    from = closing.index + closing[0].length;
    opening.lastIndex = from;
  }
  return from === 0 ? html : out + html.slice(from);
}

const PRE_ELEMENT = /(<pre[\s\S]*?<\/pre>)/;

/**
 * `text.split(/(<pre[\s\S]*?<\/pre>)/)`. Split only up to the last `</pre>`, where every `<pre` has a closing after
 * it; what follows holds no closing, so no match, and joins the last piece.
 */
export function splitAtPreElements(text: string): string[] {
  const last = text.lastIndexOf('</pre>');
  if (last === -1) return [text];
  const end = last + '</pre>'.length;
  const parts = text.slice(0, end).split(PRE_ELEMENT);
  parts[parts.length - 1] += text.slice(end);
  return parts;
}

/**
 * `content.replace(/<!--\s+(\/)?wp:([a-z][a-z0-9_-]*\/)?([a-z][a-z0-9_-]*)(\s+\{[\s\S]*?\})?\s+(\/)?-->/g, '')`:
 * block delimiters dropped (do_blocks for static blocks). A delimiter's attributes run from `{` to the first
 * `}` that a closing `-->` follows (as WordPress's parser reads them); that closing is remembered, not searched
 * for again from each opening.
 */
export function removeBlockDelimiters(content: string): string {
  const opening = /<!--\s+\/?wp:(?:[a-z][a-z0-9_-]*\/)?[a-z][a-z0-9_-]*/g;
  const attributesEnd = nextMatches(content, /\}\s+\/?-->/g);
  const bareEnd = /\s+\/?-->/y;
  let out = '';
  let from = 0;
  for (let match = opening.exec(content); match; match = opening.exec(content)) {
    const start = match.index;
    const nameEnd = start + match[0].length;
    let end = -1;
    // With attributes: white space, `{`, then up to the first `}` a closing follows.
    let brace = nameEnd;
    while (brace < content.length && /\s/.test(content[brace]!)) brace++;
    if (brace > nameEnd && content[brace] === '{') {
      const closing = attributesEnd(brace + 1);
      if (closing) end = closing.index + closing[0].length;
    }
    // Without: white space and the closing right after the name.
    if (end === -1) {
      bareEnd.lastIndex = nameEnd;
      if (bareEnd.test(content)) end = bareEnd.lastIndex;
    }
    if (end === -1) {
      opening.lastIndex = start + 1;
      continue;
    }
    out += content.slice(from, start);
    from = end;
    opening.lastIndex = end;
  }
  return from === 0 ? content : out + content.slice(from);
}

/**
 * The elements `/<([A-Za-z_][\w.-]{0,63})>([\s\S]*?)<\/\1>/g` finds, in order, at most `limit`: name and content.
 * Where each name's closing tags are is listed once, so an opening tag takes the first closing after it from that
 * list (a search per opening tag read to the end for each one left unclosed: an oEmbed answer of 1 MB of `<a>`
 * took minutes).
 */
export function xmlElements(text: string, limit: number): Array<[name: string, content: string]> {
  const closings = new Map<string, number[]>();
  for (const closing of text.matchAll(/<\/([A-Za-z_][\w.-]{0,63})>/g)) {
    const name = closing[1]!;
    const list = closings.get(name);
    if (list) list.push(closing.index);
    else closings.set(name, [closing.index]);
  }
  // Per name, the first closing not yet behind the search (openings are met in order).
  const next = new Map<string, number>();
  const elements: Array<[string, string]> = [];
  const opening = /<([A-Za-z_][\w.-]{0,63})>/g;
  for (let match = opening.exec(text); match && elements.length < limit; match = opening.exec(text)) {
    const name = match[1]!;
    const contentStart = match.index + match[0].length;
    const list = closings.get(name);
    let index = next.get(name) ?? 0;
    while (list && index < list.length && list[index]! < contentStart) index++;
    next.set(name, index);
    if (!list || index >= list.length) {
      opening.lastIndex = match.index + 1;
      continue;
    }
    const closingAt = list[index]!;
    elements.push([name, text.slice(contentStart, closingAt)]);
    opening.lastIndex = closingAt + name.length + 3;
  }
  return elements;
}
