import fc from 'fast-check';
import { Parser } from 'htmlparser2';
import sanitizeHtml from 'sanitize-html';
import { describe, expect, it } from 'vitest';
import { expectWithin } from './support/within.js';
import { boundHtmlDepth, filterHtml, MAX_HTML_DEPTH } from '../src/text/html-filter.js';
import { ksesPost, ksesShort } from '../src/text/sanitize.js';

/** The longest the parser's two lists of open elements get over the whole text (run to the end: small texts only). */
function deepest(html: string): number {
  let most = 0;
  const parser: Parser = new Parser(
    {
      onopentagname() {
        const { stack, foreignContext } = parser as unknown as { stack: string[]; foreignContext: boolean[] };
        most = Math.max(most, stack.length, foreignContext.length);
      },
    },
    { decodeEntities: false },
  );
  parser.end(html);
  return most;
}

/** Pieces that open, close, imply closings, switch to raw text or to foreign content, or break a tag. */
const PIECES = [
  '<div>', '</div>', '<svg>', '</svg>', '<math>', '</math>', '<title>', '</title>', '<p>', '</p>', '<li>', '<br>',
  '<a href="x>y">', '</a>', '<script>', '</script>', '<!-- c -->', '<a<b>', '<', '>', 'x', ' ', '<img/>', '<foreignObject>',
];
/** A run of openings that brings the text near the bound, then pieces drawn at random. */
const nearTheBound = fc
  .tuple(fc.constantFrom('<div>', '<span>', '<svg>', '<div><svg></div>', '<b>'), fc.integer({ min: MAX_HTML_DEPTH - 8, max: MAX_HTML_DEPTH + 8 }), fc.array(fc.constantFrom(...PIECES), { maxLength: 40 }))
  .map(([opening, count, rest]) => opening.repeat(count) + rest.join(''));

/** A quadratic parse takes seconds on this many characters (300,000 of `<a>`: 4.6 s); a linear one, milliseconds. */
const RUN = 1_000_000;
const linear = (run: () => unknown) => expectWithin(3_000, run);

describe('HTML given to the filters is nested within the bound', () => {
  it('keeps HTML within the bound as it is, and past it keeps the text before the element that passes it', () => {
    fc.assert(
      fc.property(fc.oneof(nearTheBound, fc.array(fc.constantFrom(...PIECES), { maxLength: 60 }).map((pieces) => pieces.join(''))), (html) => {
        const bounded = boundHtmlDepth(html);
        if (deepest(html) <= MAX_HTML_DEPTH) {
          expect(bounded).toBe(html);
          expect(filterHtml(html, { allowedTags: ['div', 'a', 'p'] })).toBe(sanitizeHtml(html, { allowedTags: ['div', 'a', 'p'] }));
          return;
        }
        // Only `<` from one point on changed: before it the HTML is as it was, after it no `<` is left to open a tag.
        let cut = 0;
        while (cut < html.length && bounded[cut] === html[cut]) cut++;
        expect(html[cut]).toBe('<');
        expect(bounded.slice(cut)).toBe(html.slice(cut).replaceAll('<', '&lt;'));
        expect(deepest(html.slice(0, cut))).toBeLessThanOrEqual(MAX_HTML_DEPTH);
        // One element more than the bound at most: the one whose name held the `<` the cut was made at (`<a<b>`).
        expect(deepest(bounded)).toBeLessThanOrEqual(MAX_HTML_DEPTH + 1);
      }),
      { numRuns: 300 },
    );
  });

  it('filters a megabyte of markup that nests at every element in linear time', () => {
    for (const opening of ['<a>', '<svg>', '<span title="x">', '<div><svg></div>']) {
      const html = opening.repeat(Math.ceil(RUN / opening.length));
      linear(() => ksesPost(html));
      linear(() => ksesShort(html));
      expect(deepest(boundHtmlDepth(html.slice(0, 20_000)))).toBeLessThanOrEqual(MAX_HTML_DEPTH + 1);
    }
  });

  it('keeps the markup up to the bound and the text after it', () => {
    const html = `${'<b>'.repeat(MAX_HTML_DEPTH)}<i>deep</i>${'</b>'.repeat(MAX_HTML_DEPTH)}`;
    expect(boundHtmlDepth(html)).toBe(`${'<b>'.repeat(MAX_HTML_DEPTH)}&lt;i>deep&lt;/i>${'&lt;/b>'.repeat(MAX_HTML_DEPTH)}`);
    const within = `${'<b>'.repeat(MAX_HTML_DEPTH - 1)}<i>deep</i>${'</b>'.repeat(MAX_HTML_DEPTH - 1)}`;
    expect(boundHtmlDepth(within)).toBe(within);
    expect(ksesShort(html)).toBe(`${'<b>'.repeat(MAX_HTML_DEPTH)}&lt;i&gt;deep&lt;/i&gt;${'&lt;/b&gt;'.repeat(MAX_HTML_DEPTH)}${'</b>'.repeat(MAX_HTML_DEPTH)}`);
  });
});
