import { Parser } from 'htmlparser2';
import sanitizeHtml from 'sanitize-html';

/**
 * How deep elements may nest in HTML given to the filters. Deeper markup is kept as text (see
 * {@link boundHtmlDepth}). Browsers' parsers stop nesting at 512; hand-written and generated pages stay far below
 * this. The parser's work per closing tag grows with the depth (it looks for the name among the open elements),
 * so the bound is also what a closing tag may cost: at 256, a megabyte of closing tags that match nothing costs
 * about as much as a megabyte of ordinary markup.
 */
export const MAX_HTML_DEPTH = 256;

/** What the parser keeps of its open elements: not in its typings, read to find where nesting passes the bound. */
interface ParserStacks {
  stack: readonly string[];
  foreignContext: readonly boolean[];
}

/**
 * The lists read above are the parser's own fields, not part of its interface: checked once when this module loads,
 * so that a parser that keeps them otherwise stops the application at start instead of leaving nesting unbounded.
 */
function checkParserStacks(): void {
  const parser = new Parser({});
  parser.write('<svg><g>');
  const { stack, foreignContext } = parser as unknown as Partial<ParserStacks>;
  if (!Array.isArray(stack) || stack.length !== 2 || !Array.isArray(foreignContext) || foreignContext.length !== 2) {
    throw new Error('siterest: this htmlparser2 does not keep its open elements as 10.x does; the HTML nesting bound cannot work with it');
  }
}
checkParserStacks();

/** Whether the text holds more than `count` `<` (no more means no more than that many elements can open). */
function hasMoreOpenings(text: string, count: number): boolean {
  let at = -1;
  for (let found = 0; found <= count; found++) {
    at = text.indexOf('<', at + 1);
    if (at < 0) return false;
  }
  return true;
}

/**
 * The HTML with every `<` from the element that would open past {@link MAX_HTML_DEPTH} on written `&lt;`, so the
 * rest reads as text; HTML within the bound is returned as it is.
 *
 * sanitize-html's parser (htmlparser2) adds each open element to the front of its list of open elements, and each
 * `<svg>`, `<math>` or HTML integration point (`<foreignObject>`, `<title>` …) to the front of a second list that
 * closings by other names do not shorten (`<div><svg></div>` repeated). Both cost their length at every addition:
 * 300,000 characters of `<a>` took 4.6 s, a megabyte of `<div><svg></div>` 1.3 s and two megabytes 5.6 s. The
 * same parser is run here first, with the same options as to structure, and stopped at the first element that
 * makes either list longer than the bound, so it does at most the bound's work per element; from that element on,
 * no tag is left to open, and the filter's own parse stays within the bound.
 */
export function boundHtmlDepth(html: string): string {
  // The foreign-content list starts with one entry (the document's own HTML context).
  if (!hasMoreOpenings(html, MAX_HTML_DEPTH - 1)) return html;
  let cut = -1;
  const parser: Parser = new Parser(
    {
      onopentagname() {
        const { stack, foreignContext } = parser as unknown as ParserStacks;
        if (stack.length > MAX_HTML_DEPTH || foreignContext.length > MAX_HTML_DEPTH) {
          // The `<` nearest before the end of the name: the element's own, or one inside its name (`<a<b>`), after
          // which only that one element can still open.
          cut = html.lastIndexOf('<', parser.endIndex);
          parser.pause();
        }
      },
    },
    { decodeEntities: false },
  );
  parser.write(html);
  if (cut < 0) return html;
  return html.slice(0, cut) + html.slice(cut).replaceAll('<', '&lt;');
}

/**
 * sanitize-html, given HTML nested within {@link MAX_HTML_DEPTH}: the one way the project runs it (lint refuses the
 * import elsewhere).
 */
export function filterHtml(html: string, options: sanitizeHtml.IOptions): string {
  return sanitizeHtml(boundHtmlDepth(html), options);
}
