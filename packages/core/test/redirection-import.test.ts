import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { expectWithin } from './support/within.js';
import { looksLikeNginx, parseCsvFile } from '../src/namespaces/redirection/io/import.js';

/** The test as it was written, reading `\s*` across line breaks (small texts only). */
const looksLikeNginxByPattern = (text: string) => /^\s*server\s*\{/m.test(text) && /^\s*rewrite\s/m.test(text);

describe('an imported file is recognised as Nginx in linear time', () => {
  it('recognises what the pattern across line breaks recognises', () => {
    const pieces = ['server', 'rewrite', '{', ' ', '\t', '\n', '\r', '\r\n', '\u2028', '\u00a0', 'x', ';'];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 30 }).map((chosen) => chosen.join('')), (text) => {
        expect(looksLikeNginx(text)).toBe(looksLikeNginxByPattern(text));
      }),
      { numRuns: 5_000 },
    );
    expect(looksLikeNginx('server {\n  rewrite ^/a$ /b permanent;\n}')).toBe(true);
    expect(looksLikeNginx('\n\n  server\n{\n\n\trewrite x')).toBe(true);
  });

  it.each(['\n', '\r', ' \n', '\n '])('reads 200,000 of %j within 500 ms', (run) => {
    const text = `server {\n${run.repeat(Math.ceil(200_000 / run.length))}`;
    expectWithin(500, () => {
      expect(looksLikeNginx(text)).toBe(false);
      expect(looksLikeNginx(text.slice(9))).toBe(false);
    });
  });
});

describe('a CSV import reads the code cell as Redirection does', () => {
  it("casts it with PHP's intval and keeps it when HTTP knows it, else 301", () => {
    const codes = (cells: string[]) =>
      parseCsvFile(cells.map((cell, i) => `/from-${i},/to,0,${cell}`).join('\n'), true).redirects.map((item) => item.body.action_code);
    expect(codes(['307', '3.07e2', ' 308x', '410', '299', 'abc', '1e999'])).toEqual([307, 307, 308, 410, 301, 301, 301]);
  });
});
