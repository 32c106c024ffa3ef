import { describe, expect, it } from 'vitest';
import { parseFormString } from '../src/http/query.js';

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
