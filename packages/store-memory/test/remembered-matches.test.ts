import { describe, expect, it } from 'vitest';
import { RememberedMatches } from '../src/db.js';

const list = (length: number, from = 0) => Array.from({ length }, (_, i) => from + i);

describe('RememberedMatches', () => {
  it('keeps a list for its version only', () => {
    const remembered = new RememberedMatches<number>();
    remembered.keep('a', 3, list(5));
    expect(remembered.find('a', 3)).toEqual(list(5));
    expect(remembered.find('a', 4)).toBeUndefined();
    expect(remembered.find('b', 3)).toBeUndefined();
  });

  it('drops the oldest filters beyond its number of filters', () => {
    const remembered = new RememberedMatches<number>(3, 1000);
    for (const key of ['a', 'b', 'c', 'd']) remembered.keep(key, 1, list(2));
    expect(remembered.find('a', 1)).toBeUndefined();
    expect(['b', 'c', 'd'].map((key) => remembered.find(key, 1)?.length)).toEqual([2, 2, 2]);
  });

  it('drops the oldest filters until the matches it holds fit its bound, counting a replaced list once', () => {
    const remembered = new RememberedMatches<number>(64, 100);
    remembered.keep('a', 1, list(40));
    remembered.keep('b', 1, list(40));
    // Asked again at a newer version: the old list of 'b' no longer counts.
    remembered.keep('b', 2, list(40, 100));
    expect(remembered.find('a', 1)).toHaveLength(40);
    remembered.keep('c', 2, list(30));
    expect(remembered.find('a', 1)).toBeUndefined();
    expect(remembered.find('b', 2)).toEqual(list(40, 100));
    expect(remembered.find('c', 2)).toHaveLength(30);
    // 40 + 30 + 30 = 100 fits exactly.
    remembered.keep('d', 2, list(30));
    expect(['b', 'c', 'd'].map((key) => remembered.find(key, 2)?.length)).toEqual([40, 30, 30]);
  });

  it('does not keep a list larger than its whole bound, nor a filter with a huge key', () => {
    const remembered = new RememberedMatches<number>(64, 100);
    remembered.keep('a', 1, list(10));
    remembered.keep('big', 1, list(101));
    remembered.keep('x'.repeat(4097), 1, list(1));
    expect(remembered.find('big', 1)).toBeUndefined();
    expect(remembered.find('x'.repeat(4097), 1)).toBeUndefined();
    expect(remembered.find('a', 1)).toHaveLength(10);
  });
});
