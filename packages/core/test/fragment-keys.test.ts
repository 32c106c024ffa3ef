import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FRAGMENT_KINDS, FragmentCache, fragmentKey, MAX_VARIANTS, type FragmentKind } from '../src/fragment-cache.js';

const kinds = Object.values(FRAGMENT_KINDS) as FragmentKind[];

describe('fragment keys', () => {
  it('are distinct numbers for distinct parts', () => {
    const parts = fc.tuple(fc.constantFrom(...kinds), fc.nat({ max: 2 ** 40 - 1 }), fc.nat({ max: 7 }), fc.nat({ max: MAX_VARIANTS - 1 }));
    fc.assert(
      fc.property(parts, parts, (a, b) => {
        const [keyA, keyB] = [fragmentKey(...a), fragmentKey(...b)];
        expect(Number.isSafeInteger(keyA)).toBe(true);
        expect(keyA === keyB).toBe(a.every((part, index) => part === b[index]));
      }),
      { numRuns: 5000 },
    );
    // Neighbours in every part, where an off-by-one in the packing would show.
    const seen = new Set<number | null>();
    for (const kind of kinds) for (const id of [0, 1, 2, 2 ** 40 - 1]) for (const root of [0, 1, 7]) for (const variant of [0, 1, 255]) seen.add(fragmentKey(kind, id, root, variant));
    expect(seen.size).toBe(kinds.length * 4 * 3 * 3);
  });

  it('are null when a part does not fit, and the caller keys by text', () => {
    for (const [id, root, variant] of [[-1, 0, 0], [1.5, 0, 0], [2 ** 40, 0, 0], [1, -1, 0], [1, 8, 0], [1, 0, -1], [1, 0, MAX_VARIANTS], [1, 0, 0.5]]) {
      expect(fragmentKey(FRAGMENT_KINDS.event, id!, root!, variant!)).toBeNull();
    }
  });

  it('number API roots up to a bound, the same root the same number', () => {
    const cache = new FragmentCache(() => 0);
    const roots = Array.from({ length: 10 }, (_, index) => cache.rootOf(`https://site${index}.example/api/`));
    expect(roots).toEqual([0, 1, 2, 3, 4, 5, 6, 7, -1, -1]);
    expect(cache.rootOf('https://site3.example/api/')).toBe(3);
  });

  it('keep fragments, text-keyed fragments and linked records apart', () => {
    const cache = new FragmentCache(() => 0);
    const settings = {};
    const fragment = (name: string) => ({ data: { name }, json: JSON.stringify({ name }), listed: null, access: [], builtAt: 0 });
    const key = fragmentKey(FRAGMENT_KINDS.venue, 12, 0, 0)!;
    cache.set(key, 1, settings, fragment('numbered'));
    cache.set(String(key), 1, settings, fragment('text'));
    cache.keepRecord(FRAGMENT_KINDS.venue, 12, 1, settings, { id: 12 }, 0);
    expect(cache.get(key, 1, settings)?.data.name).toBe('numbered');
    expect(cache.get(String(key), 1, settings)?.data.name).toBe('text');
    expect(cache.record(FRAGMENT_KINDS.venue, 12, 1, settings)).toEqual({ id: 12 });
    expect(cache.record(FRAGMENT_KINDS.organizer, 12, 1, settings)).toBeUndefined();
    expect(cache.size.entries).toBe(3);
  });
});
