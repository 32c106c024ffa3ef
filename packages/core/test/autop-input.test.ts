import { autop } from '@wordpress/autop';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { expectWithin } from './support/within.js';
import { boundAutopInput, collapseParagraphBreaks, joinBreakPairs, MAX_UNENDED_STARTS, withPreElementsSetAside } from '../src/namespaces/calendar/format/autop-input.js';
import { wpautop } from '../src/namespaces/calendar/format/render.js';

/** Pieces that start autop's patterns, end them, or neither. */
const PIECES = ['<p><li', '<p><li>', '<p><li ', '<p>', '<li>', '</p>', '<svg', '</svg>', '<math', '</math>', '<style', '</style>', '<script', '</script>', '<div ', '</div ', '>', '\n', 'x', ' ', '&lt;', '<source>', '[audio', '[video', ']', '&#91;'];
const textOf = (maxLength: number) => fc.array(fc.constantFrom(...PIECES), { maxLength }).map((pieces) => pieces.join(''));

/** Starts that no end follows, repeated: a quadratic read takes seconds at this length (100,000 of `<p><li`: 3 s). */
const RUN = 300_000;
const HOSTILE = ['<pre</pre>', '</pre><pre', '<pre>x</pre>', '<p><li', '<p><lia', '<math', '<style', '<svg', '<script', '</div ', '<div ', '<td ', '<p><li\n', '<svg>', '<math>'];

describe('the text wpautop is given', () => {
  it('is the text as it is when it repeats no start more than the bound allows', () => {
    // Fewer pieces than the bound: no kind of start can pass it.
    fc.assert(
      fc.property(textOf(MAX_UNENDED_STARTS), (text) => {
        expect(boundAutopInput(text)).toBe(text);
      }),
      { numRuns: 2_000 },
    );
  });

  it('only writes `<` as `&lt;` and `[` as `&#91;`, and leaves no more starts of each kind than the bound', () => {
    const unescaped = (text: string) => text.replaceAll('&lt;', '<').replaceAll('&#91;', '[');
    fc.assert(
      fc.property(textOf(400), (text) => {
        const bounded = boundAutopInput(text);
        expect(unescaped(bounded)).toBe(unescaped(text));
        const afterLastMark = bounded.slice(Math.max(bounded.lastIndexOf('>'), bounded.lastIndexOf(']')) + 1);
        expect(afterLastMark.match(/\[(?:audio|video)/g)?.length ?? 0).toBeLessThanOrEqual(MAX_UNENDED_STARTS);
        expect(bounded.match(/<p><li(?![\s/>])/g)?.length ?? 0).toBeLessThanOrEqual(MAX_UNENDED_STARTS);
        for (const stretch of bounded.split('>')) expect(stretch.split('<').length - 1).toBeLessThanOrEqual(MAX_UNENDED_STARTS);
        for (const name of ['script', 'style', 'svg', 'math']) {
          const lastClosing = bounded.lastIndexOf(`</${name}>`);
          const unclosed = bounded.split(`<${name}`).length - 1 - (lastClosing < 0 ? 0 : bounded.slice(0, lastClosing).split(`<${name}`).length - 1);
          expect(unclosed).toBeLessThanOrEqual(MAX_UNENDED_STARTS);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('keeps the first starts of a run and writes the rest as text', () => {
    const text = `${'<svg'.repeat(MAX_UNENDED_STARTS + 2)}`;
    expect(boundAutopInput(text)).toBe(`${'<svg'.repeat(MAX_UNENDED_STARTS)}&lt;svg&lt;svg`);
    const items = `${'<p><lix'.repeat(MAX_UNENDED_STARTS + 1)}>`;
    expect(boundAutopInput(items)).toBe(`${'<p><lix'.repeat(MAX_UNENDED_STARTS)}<p>&lt;lix>`);
    // autop starts a paragraph before each of these `<li`, so they are no run of one line.
    const list = '<p><li>x</li></p><p><li class="y">z</li></p>\n'.repeat(MAX_UNENDED_STARTS * 2);
    expect(boundAutopInput(list)).toBe(list);
  });

  it('sets <pre> elements aside as autop does: the same answer', () => {
    const pieces = ['<pre>', '</pre>', '<pre class="a">', '<pre', 'x', ' ', '\n', '\n\n', '<p>', '</p>', '<div>', '</div>', '<br>', '<br />', '<dl>', '</dl>',
      '<dl siterest-pre="0"></dl>', '<li>', '<hr>', '<blockquote>', '</blockquote>', '<script>', '</script>', '<!-- c -->', 'wp-pre-tag-0', '<dd>', '<option>',
      '<figcaption>', '<object>', '</object>', '<td>', '<p class="c">', '<b>', '</b>', 'siterest-pre', '<preformatted>'];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 40 }).map((chosen) => chosen.join('')), (text) => {
        expect(withPreElementsSetAside(text, (rest) => autop(rest))).toBe(autop(text));
      }),
      { numRuns: 5_000 },
    );
  });

  it('keeps the first media starts after the last `>` or `]` and writes the `[` of the rest as `&#91;`', () => {
    const run = (count: number) => '[audio x'.repeat(count);
    expect(boundAutopInput(`<source>${run(MAX_UNENDED_STARTS)}`)).toBe(`<source>${run(MAX_UNENDED_STARTS)}`);
    expect(boundAutopInput(`<source>${run(MAX_UNENDED_STARTS + 2)}`)).toBe(`<source>${run(MAX_UNENDED_STARTS)}&#91;audio x&#91;audio x`);
    // Ended by a `]`, every start is matched with the text up to it: nothing to bound. Without `<source` or `<track`
    // autop never runs the pattern.
    expect(boundAutopInput(`<track>${run(MAX_UNENDED_STARTS + 2)}]`)).toBe(`<track>${run(MAX_UNENDED_STARTS + 2)}]`);
    expect(boundAutopInput(`<b>${run(MAX_UNENDED_STARTS + 2)}`)).toBe(`<b>${run(MAX_UNENDED_STARTS + 2)}`);
    // Bounded or not, autop gives the same paragraphs; only the `[` of the starts past the bound differ.
    const text = `<source>\n\n${'[video '.repeat(MAX_UNENDED_STARTS + 3)}`;
    expect(wpautop(text).replaceAll('&#91;', '[')).toBe(autop(text));
  });

  it('joins pairs of <br> and collapses runs of line breaks to one blank line with the same answer from autop, in tags and <pre> none', () => {
    const pieces = ['a', ' ', '\n', '\r', '\r\n', '\t', '\u00a0', '\u2028', '<source>', '<track>', '<option>', '</option>', '<object>', '</object>', '<param>',
      '<figcaption>', '</figcaption>', '[audio', ']', '<div>', '</div>', '<br>', '<br />', '<br/>', '<br', '/>', '<p>', '</p>', '<pre>', '</pre>', '<li>', '<hr>',
      '<blockquote>', '<!--', '-->', '<![CDATA[', ']]>', '<', '>', '<a title="', '"', '<script>', '</script>', '<style>', '</style>', '<!-- wpnl -->'];
    const pairs = /<br\s*\/?>\s*<br\s*\/?>/g;
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 40 }).map((chosen) => chosen.join('')), fc.integer({ min: 0, max: 4 }), (text, longest) => {
        // Not where joining the pairs makes a new one (the case written as text, below).
        fc.pre(text.replace(pairs, '\n\n').search(pairs) < 0);
        expect(withPreElementsSetAside(text, (rest) => autop(collapseParagraphBreaks(joinBreakPairs(rest), longest)))).toBe(autop(text));
      }),
      { numRuns: 20_000 },
    );
    expect(joinBreakPairs('a<br /> <br>b<br>c')).toBe('a\n\nb<br>c');
    // Pairs and white space alone are left to autop, which answers such text only because it is not blank yet.
    expect(joinBreakPairs(' <br /><br/>')).toBe(' <br /><br/>');
    expect(wpautop(' <br /><br/>')).toBe(autop(' <br /><br/>'));
    // autop's markers of line breaks in tags become line breaks after the <pre> elements are back, in them too.
    expect(wpautop('<pre>a<!-- wpnl -->b</pre>')).toBe(autop('<pre>a<!-- wpnl -->b</pre>'));
    // A `<br` before a pair and a `/>` after it would be a new pair: written as text, not joined again.
    expect(joinBreakPairs('<br<br><br>/><br>')).toBe('&lt;br\n\n/>&lt;br>');
    expect(collapseParagraphBreaks(`a ${' \n'.repeat(300)} b`)).toBe('a  \n\n b');
    expect(collapseParagraphBreaks(`<a title="${'\n'.repeat(300)}">`)).toBe(`<a title="${'\n'.repeat(300)}">`);
    // One break, however long the run, and short runs stay.
    expect(collapseParagraphBreaks(`a${' '.repeat(300)}\r\n${' '.repeat(300)}b`)).toBe(`a${' '.repeat(300)}\r\n${' '.repeat(300)}b`);
    expect(collapseParagraphBreaks('a \n\n\n b')).toBe('a \n\n\n b');
  });

  it.each([
    ['</object>', ' <br />'],
    ['<source>', '[audio<br><br>'],
    ['<source>', ' \n'],
    ['</object>', '\n\n'],
    ['<option>', '\r\n '],
    ['<source>', '[audio'],
    ['<track src="t">', '[video x '],
  ])('renders %j then %j repeated in linear time', (before, start) => {
    const text = before + start.repeat(Math.ceil(RUN / start.length));
    expectWithin(1_500, () => wpautop(text));
  });

  it.each(HOSTILE)('renders %j repeated in linear time', (start) => {
    const text = start.repeat(Math.ceil(RUN / start.length));
    expectWithin(1_500, () => wpautop(text));
  });
});
