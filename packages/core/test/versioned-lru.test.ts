import { describe, expect, it } from 'vitest';
import { VersionedLru } from '../src/util/versioned-lru.js';

describe('VersionedLru', () => {
  const lru = (maxEntries: number) => new VersionedLru(() => 0, { maxEntries, maxBytes: 1_000_000, largestShare: 1, maxAgeMs: 1000 });

  it('drops the entry read least recently first', () => {
    const cache = lru(3);
    for (const key of ['a', 'b', 'c']) cache.set(key, 1, key, 1);
    expect(cache.get('a', 1)).toBe('a');
    cache.set('d', 1, 'd', 1);
    // b was neither read nor written since a was read: it goes, a stays.
    expect(cache.get('b', 1)).toBeUndefined();
    expect(cache.get('a', 1)).toBe('a');
    cache.set('e', 1, 'e', 1);
    cache.set('f', 1, 'f', 1);
    expect(cache.size.entries).toBe(3);
    // a was read again: c and d went before it.
    expect(cache.get('c', 1)).toBeUndefined();
    expect(cache.get('a', 1)).toBe('a');
  });

  it('keeps a new entry when every older one has been read since it came to the front', () => {
    const cache = lru(3);
    for (const key of ['a', 'b', 'c']) cache.set(key, 1, key, 1);
    for (const key of ['a', 'b', 'c']) cache.get(key, 1);
    cache.set('d', 1, 'd', 1);
    // All three in use: d still gets in, and a, read longest ago, goes.
    expect(cache.get('d', 1)).toBe('d');
    expect(cache.get('a', 1)).toBeUndefined();
    expect(cache.size.entries).toBe(3);
    // Again with the entries left, all read: e gets in.
    for (const key of ['b', 'c', 'd']) cache.get(key, 1);
    cache.set('e', 1, 'e', 1);
    expect(cache.get('e', 1)).toBe('e');
    expect(cache.get('b', 1)).toBeUndefined();
    expect(cache.size.entries).toBe(3);
  });

  it('stays within its bounds when every entry has been read', () => {
    const cache = lru(50);
    for (let i = 0; i < 1000; i++) {
      cache.set(`k${i}`, 1, i, 1);
      for (let j = Math.max(0, i - 60); j <= i; j++) cache.get(`k${j}`, 1);
      expect(cache.size.entries).toBeLessThanOrEqual(50);
    }
    expect(cache.get('k999', 1)).toBe(999);
  });

  it('reuses an entry only while its age, counted from when its value was made, is within the limit', () => {
    let now = 10_000;
    const cache = new VersionedLru(() => now, { maxEntries: 10, maxBytes: 1_000_000, largestShare: 1, maxAgeMs: 1000 });
    cache.set('fresh', 1, 'fresh', 1);
    cache.set('made earlier', 1, 'made earlier', 1, undefined, now - 900);
    now += 500;
    expect(cache.get('fresh', 1)).toBe('fresh');
    // Kept 500 ms ago, but made 1,400 ms ago.
    expect(cache.get('made earlier', 1)).toBeUndefined();
    cache.set('again', 1, 'again', 1);
    // A clock set back (a time sync) does not make entries live longer than the limit: they are dropped.
    now -= 5_000;
    expect(cache.get('again', 1)).toBeUndefined();
    expect(cache.get('fresh', 1)).toBeUndefined();
  });
});
