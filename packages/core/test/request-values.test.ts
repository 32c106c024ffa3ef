import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseFormString, parseNestedForm, phpUrlDecode } from '../src/http/query.js';

describe('objects built from request values', () => {
  it('read as PHP reads an array in a string context, and expose nothing a client could name', () => {
    const parsed = parseFormString('a[b]=1&list[][c]=2&__proto__[x]=1&constructor[prototype][y]=2&n[toString]=z');
    expect(String(parsed.a)).toBe('Array');
    expect(`${(parsed.list as unknown[])[0] as string}`).toBe('Array');
    expect(String(parsed.list)).toBe('Array');
    const nested = parsed.a as Record<string, unknown>;
    expect(['toString', 'constructor', 'hasOwnProperty', '__proto__'].map((key) => nested[key])).toEqual([undefined, undefined, undefined, undefined]);
    expect(Object.keys(parsed.n as object)).toEqual(['toString']);
    expect(Object.prototype).not.toHaveProperty('x');
    expect(Object.prototype).not.toHaveProperty('y');
    expect(Object.isFrozen(Object.getPrototypeOf(nested))).toBe(true);
  });
});

describe('query strings without brackets', () => {
  it('are read as qs reads them: values, order, repeats, empty and hostile keys, percent sequences', () => {
    // An alphabet of what matters to the reading: separators, escapes, names qs treats apart, and text.
    const piece = fc.constantFrom('&', '=', '%', '+', '%2', '%20', '%3D', '%26', '%E2%80%9C', '%FF', '%zz', 'a', 'b', '0', '7', '__proto__', 'constructor', 'toString', 'é', '.', ' ');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 24 }), (pieces) => {
        const input = pieces.join('');
        const flat = parseFormString(input);
        const nested = parseNestedForm(input);
        expect(Object.entries(flat)).toEqual(Object.entries(nested));
        expect(Object.getPrototypeOf(flat)).toBe(Object.getPrototypeOf(nested));
      }),
      { numRuns: 2000 },
    );
  });

  it('keep at most as many pairs as qs does', () => {
    const input = Array.from({ length: 5003 }, (_, index) => `k${index}=${index}`).join('&');
    expect(Object.keys(parseFormString(input))).toHaveLength(5000);
    expect(Object.entries(parseFormString(input))).toEqual(Object.entries(parseNestedForm(input)));
  });
});

/**
 * PHP's urldecode as its manual states it, written the plain way: every escape its own byte, every other run of text
 * its UTF-8 bytes, the whole read as UTF-8 (a text with no `%` as it is).
 */
function urldecodeByTheBook(text: string): string {
  const plain = text.replace(/\+/g, ' ');
  if (!plain.includes('%')) return plain;
  const bytes: Buffer[] = [];
  let from = 0;
  for (const match of plain.matchAll(/%([0-9a-fA-F]{2})/g)) {
    bytes.push(Buffer.from(plain.slice(from, match.index), 'utf8'), Buffer.from([Number.parseInt(match[1]!, 16)]));
    from = match.index + 3;
  }
  bytes.push(Buffer.from(plain.slice(from), 'utf8'));
  return Buffer.concat(bytes).toString('utf8');
}

describe('percent decoding (PHP urldecode)', () => {
  it('decodes as the manual states: escapes, bad escapes, plus signs, cut-off and non-ASCII characters', () => {
    const piece = fc.constantFrom('%', '%%', '%4', '%41', '%4a', '%4G', '%e2', '%E2%80', '%E2%80%9C', '%C3%A9', '%FF', '%00', '+', 'a', 'F', '9', 'é', '€', '😀', '\uD800', '\uDC00', ' ');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), (pieces) => {
        const input = pieces.join('');
        expect(phpUrlDecode(input)).toBe(urldecodeByTheBook(input));
      }),
      { numRuns: 3000 },
    );
  });

  it('decodes a run of 100,000 escapes into its characters', () => {
    expect(phpUrlDecode(`x${'%3C'.repeat(100_000)}%E2%80%9Cx`)).toBe(`x${'<'.repeat(100_000)}\u201Cx`);
    expect(phpUrlDecode('%'.repeat(100_000))).toBe('%'.repeat(100_000));
  });
});

