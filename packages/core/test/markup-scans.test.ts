import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { expectWithin } from './support/within.js';
import {
  hasAngleTag,
  removeAngleTags,
  removeBlockDelimiters,
  removeBracketed,
  removeScriptAndStyle,
  splitAtPreElements,
  xmlElements,
} from '../src/text/markup-scans.js';

/** Texts made of pieces that open, close and break the patterns, so that every path of each scan is drawn. */
const textOf = (pieces: string[]) => fc.array(fc.constantFrom(...pieces), { maxLength: 40 }).map((chosen) => chosen.join(''));

/** The patterns the scans replace, as they were written. */
const BLOCK_DELIMITER = /<!--\s+(\/)?wp:([a-z][a-z0-9_-]*\/)?([a-z][a-z0-9_-]*)(\s+\{[\s\S]*?\})?\s+(\/)?-->/g;

function xmlByPattern(text: string, limit: number): Array<[string, string]> {
  const child = /<([A-Za-z_][\w.-]{0,63})>([\s\S]*?)<\/\1>/g;
  const found: Array<[string, string]> = [];
  for (let match = child.exec(text); match && found.length < limit; match = child.exec(text)) found.push([match[1]!, match[2]!]);
  return found;
}

/** A run this long makes a quadratic scan take seconds (200,000 `<`: 24 s); a linear one takes milliseconds. */
const RUN = 400_000;
const linear = (run: () => unknown) => expectWithin(1_000, run);

describe('markup scans give what their patterns give', () => {
  it('removeAngleTags and hasAngleTag: /<[^>]*>/', () => {
    fc.assert(
      fc.property(textOf(['<', '>', 'a', ' ', '<b>']), (text) => {
        expect(removeAngleTags(text)).toBe(text.replace(/<[^>]*>/g, ''));
        expect(hasAngleTag(text)).toBe(/<[^>]*>/.test(text));
      }),
      { numRuns: 2_000 },
    );
  });

  it('removeBracketed: /\\[.+?\\]/ (within a line)', () => {
    fc.assert(
      fc.property(textOf(['[', ']', 'a', '\n', '\r', '\u2028', '\u2029', '[x]']), (text) => {
        expect(removeBracketed(text)).toBe(text.replace(/\[.+?\]/g, ''));
      }),
      { numRuns: 2_000 },
    );
  });

  it('removeScriptAndStyle: /<(script|style)[^>]*?>[\\s\\S]*?<\\/\\1>/gi', () => {
    const pieces = ['<script', '<SCRIPT', '<style', '<Style ', '>', '</script>', '</SCRIPT>', '</style>', '</Style>', 'a', '<', '\n', 'type="x"'];
    fc.assert(
      fc.property(textOf(pieces), (text) => {
        expect(removeScriptAndStyle(text)).toBe(text.replace(/<(script|style)[^>]*?>[\s\S]*?<\/\1>/gi, ''));
      }),
      { numRuns: 3_000 },
    );
  });

  it('splitAtPreElements: split(/(<pre[\\s\\S]*?<\\/pre>)/)', () => {
    fc.assert(
      fc.property(textOf(['<pre', '<pre>', '</pre>', '</PRE>', 'a', '<', '>', '\n']), (text) => {
        expect(splitAtPreElements(text)).toEqual(text.split(/(<pre[\s\S]*?<\/pre>)/));
      }),
      { numRuns: 2_000 },
    );
  });

  it('removeBlockDelimiters: the block delimiter pattern', () => {
    const pieces = ['<!--', '<!-- ', ' ', '\n', 'wp:', 'core/', 'para', 'x1', '{', '}', '"a":1', '-->', ' -->', ' /-->', '/', '<!-- wp:a ', '<!-- wp:a{', '<!-- wp:a {', '} -->', '<!-- /wp:a -->', '<!-- wp:ns/b {"x":"}"} /-->'];
    fc.assert(
      fc.property(textOf(pieces), (text) => {
        expect(removeBlockDelimiters(text)).toBe(text.replace(BLOCK_DELIMITER, ''));
      }),
      { numRuns: 3_000 },
    );
  });

  it('xmlElements: /<([A-Za-z_][\\w.-]{0,63})>([\\s\\S]*?)<\\/\\1>/g, at most limit', () => {
    const pieces = ['<a>', '</a>', '<b>', '</b>', '<a.b>', '</a.b>', '<A>', '</A>', 'x', '<', '>', '</', 'a', '<_1>', '</_1>'];
    fc.assert(
      fc.property(textOf(pieces), fc.integer({ min: 0, max: 5 }), (text, limit) => {
        expect(xmlElements(text, limit)).toEqual(xmlByPattern(text, limit));
      }),
      { numRuns: 3_000 },
    );
  });
});

describe('markup scans are linear where their patterns were quadratic', () => {
  it('in openings no closing follows', () => {
    linear(() => expect(removeAngleTags(`a${'<'.repeat(RUN)}`)).toBe(`a${'<'.repeat(RUN)}`));
    linear(() => expect(hasAngleTag('<'.repeat(RUN))).toBe(false));
    linear(() => expect(removeBracketed('['.repeat(RUN))).toBe('['.repeat(RUN)));
    linear(() => expect(removeBracketed(`${'['.repeat(RUN)}\n]`)).toBe(`${'['.repeat(RUN)}\n]`));
    linear(() => expect(removeScriptAndStyle(`${'<script>'.repeat(RUN / 8)}</style>`)).toHaveLength(RUN + 8));
    linear(() => expect(splitAtPreElements(`${'<pre'.repeat(RUN / 4)}`)).toHaveLength(1));
    linear(() => expect(splitAtPreElements(`<pre></pre>${'<pre'.repeat(RUN / 4)}`)).toHaveLength(3));
    linear(() => expect(removeBlockDelimiters('<!-- wp:a {'.repeat(RUN / 10))).toHaveLength(11 * (RUN / 10)));
    linear(() => expect(removeBlockDelimiters(`${'<!-- wp:a {'.repeat(RUN / 10)}} -->`)).toBe(''));
    linear(() => expect(xmlElements(`${'<a>'.repeat(RUN / 3)}<b></b>`, 100)).toEqual([['b', '']]));
    // Every opening a different name, none closed.
    linear(() => expect(xmlElements(Array.from({ length: RUN / 8 }, (_, i) => `<n${i}>`).join(''), 100)).toEqual([]));
  });
});
