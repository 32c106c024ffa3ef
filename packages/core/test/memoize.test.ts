import { describe, expect, it, vi } from 'vitest';
import { memoize } from '../src/util/memo.js';

describe('memoize', () => {
  const counted = (size: number) => {
    const calls: string[] = [];
    const upper = memoize((text: string) => (calls.push(text), text.toUpperCase()), (text) => text, size);
    return { calls, upper };
  };

  it('answers a key asked for again without calling the function, for at least the last `size` keys', () => {
    const { calls, upper } = counted(4);
    for (const key of ['a', 'b', 'c', 'd']) expect(upper(key)).toBe(key.toUpperCase());
    for (const key of ['d', 'c', 'b', 'a']) expect(upper(key)).toBe(key.toUpperCase());
    expect(calls).toEqual(['a', 'b', 'c', 'd']);
    // Four more keys: the last four asked for are still known.
    for (const key of ['e', 'f', 'g', 'h']) upper(key);
    for (const key of ['e', 'f', 'g', 'h']) upper(key);
    expect(calls).toHaveLength(8);
  });

  it('keeps a key that goes on being asked for, and forgets the ones nobody asks for again', () => {
    const { calls, upper } = counted(3);
    upper('hot');
    for (let i = 0; i < 30; i++) {
      upper(`cold ${i}`);
      upper('hot');
    }
    expect(calls.filter((key) => key === 'hot')).toHaveLength(1);
    upper('cold 0');
    expect(calls.filter((key) => key === 'cold 0')).toHaveLength(2);
  });

  it('changes nothing on a hit of a recent key (moving every hit in one map left garbage behind, see memo.ts)', () => {
    const { upper } = counted(100);
    for (let i = 0; i < 50; i++) upper(`key ${i}`);
    const set = vi.spyOn(Map.prototype, 'set');
    const remove = vi.spyOn(Map.prototype, 'delete');
    try {
      for (let round = 0; round < 3; round++) for (let i = 0; i < 50; i++) expect(upper(`key ${i}`)).toBe(`KEY ${i}`);
      expect(set).not.toHaveBeenCalled();
      expect(remove).not.toHaveBeenCalled();
    } finally {
      set.mockRestore();
      remove.mockRestore();
    }
  });

  it('remembers an undefined answer, and holds at most twice `size` keys', () => {
    let calls = 0;
    const nothing = memoize((key: string) => void (calls++, key), (key) => key, 2);
    nothing('x');
    nothing('x');
    expect(calls).toBe(1);
    // After 2 × 2 newer keys, the first is gone.
    for (const key of ['a', 'b', 'c', 'd']) nothing(key);
    nothing('x');
    expect(calls).toBe(6);
  });

  it('does not remember keys longer than `maxKeyChars`', () => {
    let calls = 0;
    const length = memoize((text: string) => (calls++, text.length), (text) => text, 10, 8);
    expect(length('12345678')).toBe(8);
    expect(length('12345678')).toBe(8);
    expect(calls).toBe(1);
    const long = '123456789';
    expect(length(long)).toBe(9);
    expect(length(long)).toBe(9);
    expect(calls).toBe(3);
  });

  it('turns a generation once its keys and text answers reach `maxChars` characters', () => {
    let calls = 0;
    const echo = memoize((text: string) => (calls++, text), (text) => text, 100, Infinity, 40);
    // Ten characters a call (five of key, five of answer): four fill a generation, the fifth turns it.
    const keys = ['aaaaa', 'bbbbb', 'ccccc', 'ddddd', 'eeeee'];
    for (const key of keys) echo(key);
    expect(calls).toBe(5);
    // Past two generations' worth of text, the first key is gone; the last is remembered.
    for (const key of ['fffff', 'ggggg', 'hhhhh', 'iiiii']) echo(key);
    echo('iiiii');
    expect(calls).toBe(9);
    echo('aaaaa');
    expect(calls).toBe(10);
  });

  it('answers one of the last four calls made with the very same arguments without building its key', () => {
    const keys: string[] = [];
    const zone = { name: 'Europe/Berlin' };
    const stamp = memoize((day: string, where: { name: string }) => `${day} ${where.name}`, (day, where) => (keys.push(day), `${where.name}|${day}`), 10);
    for (let round = 0; round < 3; round++) {
      expect(stamp('2027-01-01', zone)).toBe('2027-01-01 Europe/Berlin');
      expect(stamp('2027-12-31', zone)).toBe('2027-12-31 Europe/Berlin');
    }
    expect(keys).toEqual(['2027-01-01', '2027-12-31']);
    // Another object is another argument: its key is built (and the answer found under it).
    expect(stamp('2027-01-01', { name: 'Europe/Berlin' })).toBe('2027-01-01 Europe/Berlin');
    expect(keys).toHaveLength(3);
  });
});
