import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { expectWithin } from './support/within.js';
import { phpTrim, splitAtCommas } from '../src/http/php.js';
import { noNull } from '../src/text/kses-protocols.js';

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
    expectWithin(200, () => expect(splitAtCommas(`a${' '.repeat(300_000)}b, c`)).toEqual([`a${' '.repeat(300_000)}b`, 'c']));
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

describe('noNull (wp_kses_no_null)', () => {
  it("removes control characters and what preg_replace('/\\\\+0+/') removes", () => {
    const slashy = fc.array(fc.constantFrom('\\', '0', 'a', '\0', '\x01', '\n'), { maxLength: 30 }).map((chars) => chars.join(''));
    fc.assert(
      fc.property(slashy, (value) => {
        expect(noNull(value)).toBe(value.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/g, '').replace(/\\+0+/g, ''));
      }),
    );
  });

  it('is linear in a run of backslashes no zero follows', () => {
    expectWithin(200, () => expect(noNull(`a${'\\'.repeat(300_000)}b\\00c`)).toBe(`a${'\\'.repeat(300_000)}bc`));
  });
});
