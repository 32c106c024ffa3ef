import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { expectWithin } from './support/within.js';
import { safeCss } from '../src/text/safe-css.js';
import { ksesPost, ksesShort } from '../src/text/sanitize.js';

/** WordPress's safecss_filter_attr, as kses applies it to `style` attributes of content from authors without unfiltered_html. */
describe('safeCss (safecss_filter_attr)', () => {
  it.each([
    ['color: red; background: url(javascript:alert(1))', 'color: red'],
    ['COLOR: red', ''],
    ['position:fixed;top:0', 'position:fixed;top:0'],
    ['behavior: url(x.htc); color: red', 'color: red'],
    ['width: calc(100% - (2 * 10px)); height: expression(alert(1))', 'width: calc(100% - (2 * 10px))'],
    ['background-image: linear-gradient(to right, rgba(0,0,0,1), #fff)', 'background-image: linear-gradient(to right, rgba(0,0,0,1), #fff)'],
    ['background: url("https://example.org/a.png") no-repeat', 'background: url("https://example.org/a.png") no-repeat'],
    ["background-image: url('0')", ''],
    // Split at every `;` first: the URL's scheme is refused, and its tail, with no colon, is kept as WordPress keeps it.
    ['cursor: url(data:image/png;base64,AAAA), auto', 'base64,AAAA), auto'],
    ['color: red /* comment */', ''],
    ['color: red\\9', ''],
    ['color: red; font-family: a&b', 'color: red'],
    ['margin: min(1px, var(--a, calc(2px)))', 'margin: min(1px, var(--a, calc(2px)))'],
    ['grid-template-columns: repeat(3, minmax(0, 1fr))', 'grid-template-columns: repeat(3, minmax(0, 1fr))'],
    ['width: calc((1px)', ''],
    // What a balanced call of an allowed function holds is not checked, in WordPress either.
    ['width: calc(1px = 2px); height: 1px = 2px', 'width: calc(1px = 2px)'],
    ['width: xcalc(1px)', ''],
    ['--accent: blue; --bad: url(javascript:x)', '--accent: blue'],
    ['--a b: blue', ''],
    // A part without a colon is kept (and an empty one after trimming leaves a trailing `;`), as WordPress does.
    ['foo; color:red; ;', 'foo;color:red;'],
    ['  color:\tred\n;\r', 'color:red'],
    ['x: 1', ''],
  ])('%j → %j', (css, kept) => {
    expect(safeCss(css)).toBe(kept);
  });

  it('keeps only whole declarations of the input, and none with a refused character where no function call could hold it', () => {
    const piece = fc.constantFrom('color', 'width', 'background', 'position', 'x', ':', ';', ' ', 'red', '(', ')', 'calc(', 'var(--a)', 'url(', 'javascript:', '"', '\\', '&', '=', '}', '/*', 'rgba(0,0,0,1)', 'linear-gradient(');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }).map((parts) => parts.join('')), (css) => {
        const kept = safeCss(css);
        const given = css.replace(/[\n\r\t]/g, '').split(';').map((part) => part.trim());
        for (const declaration of kept === '' ? [] : kept.split(';')) {
          expect(given).toContain(declaration);
          // Inside a balanced `calc(…)`, `var(…)` and their kin WordPress allows anything (`calc(=)` is kept), and
          // `url(…)` is judged by its scheme; a declaration without parentheses has nothing set aside.
          if (!declaration.includes('(')) expect(declaration).not.toMatch(/\/\*|[&=}\\]/);
        }
      }),
    );
  });

  it('runs in linear time on hostile values', () => {
    for (const css of [
      `background:${'url('.repeat(100_000)}`,
      `width:${'calc('.repeat(100_000)}`,
      `background:linear-gradient(${'rgba(1'.repeat(40_000)}x`,
      `a${' '.repeat(200_000)}b`,
      `--x:${'var(--a,'.repeat(50_000)}`,
    ]) {
      expectWithin(1_000, () => safeCss(css));
    }
  });
});

describe('kses style attributes', () => {
  it('filters each style attribute and drops one with nothing left', () => {
    expect(ksesPost('<p style="color:red;behavior:url(x.htc)">a</p><span style="position:absolute;left:0">b</span><b style="x:(">c</b><i style="0">d</i>')).toBe(
      '<p style="color:red">a</p><span style="position:absolute;left:0">b</span><b>c</b><i>d</i>',
    );
  });

  it('keeps no style in short texts, where kses allows none', () => {
    expect(ksesShort('<b style="color:red">x</b>')).toBe('<b>x</b>');
  });
});
