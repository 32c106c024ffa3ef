import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { expectWithin } from './support/within.js';
import { floatval, intval, phpTrim, requestObject, splitAtCommas } from '../src/http/php.js';
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

describe('intval and floatval', () => {
  it("cast strings as PHP's (int) and (float) do: through the leading number, exponent included", () => {
    const cases: Array<[string, number, number]> = [
      ['2e1', 20, 20],
      ['1.5e1', 15, 15],
      [' \t12abc', 12, 12],
      ['1.9', 1, 1.9],
      ['-0.5', 0, -0.5],
      ['.5e1x', 5, 5],
      ['1e', 1, 1],
      ['0x1A', 0, 0],
      ['\u00a05', 0, 0],
      ['abc', 0, 0],
      // INF is 0 to (int); past the 64-bit bounds the cast saturates.
      ['1e999', 0, 0],
      ['1e30', 2 ** 63 - 1, 1e30],
      ['-99999999999999999999', -(2 ** 63), -1e20],
    ];
    for (const [text, int, float] of cases) expect([text, intval(text), floatval(text)]).toEqual([text, int, float]);
    expect(Object.is(intval('-0.5'), 0)).toBe(true);
  });

  it('cast arrays and keyed query values as PHP casts an array: 1 when it holds anything', () => {
    const keyed = requestObject();
    expect(intval(keyed)).toBe(0);
    keyed.a = '0';
    expect([intval(keyed), intval(['0']), intval([])]).toEqual([1, 1, 0]);
  });
});
