import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { phpTrim, splitAtCommas } from '../src/http/php.js';

/** Text helpers that replace patterns quadratic in a run of white space: same answers as the patterns, in linear time. */
const text = fc.array(fc.constantFrom(' ', ',', 'a', '\t', '\n', '\u00a0', '\0', '\x0B', '-', '.'), { maxLength: 30 }).map((chars) => chars.join(''));

describe('splitAtCommas', () => {
  it("splits as preg_split('/\\s*,\\s*/') (JavaScript's \\s)", () => {
    fc.assert(
      fc.property(text, (value) => {
        expect(splitAtCommas(value)).toEqual(value.split(/\s*,\s*/));
      }),
    );
  });

  it('is linear in a run of white space no comma follows', () => {
    const started = performance.now();
    expect(splitAtCommas(`a${' '.repeat(300_000)}b, c`)).toEqual([`a${' '.repeat(300_000)}b`, 'c']);
    expect(performance.now() - started).toBeLessThan(200);
  });
});

describe('phpTrim', () => {
  it('trims as the regex it replaced, with the default and with given characters', () => {
    fc.assert(
      fc.property(text, (value) => {
        expect(phpTrim(value)).toBe(value.replace(/^[ \t\n\r\0\x0B]+|[ \t\n\r\0\x0B]+$/g, ''));
        expect(phpTrim(value, '.-')).toBe(value.replace(/^[.-]+|[.-]+$/g, ''));
      }),
    );
  });
});
