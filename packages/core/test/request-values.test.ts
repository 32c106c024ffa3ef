import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseFormString, parseNestedForm } from '../src/http/query.js';

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
