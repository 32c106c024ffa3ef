import { afterEach, describe, expect, it } from 'vitest';
import { both } from '../src/util/maybe.js';

const pair = (a: number, b: number) => [a, b];

describe('both', () => {
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);
  afterEach(() => {
    process.off('unhandledRejection', onUnhandled);
  });

  it('joins two values at hand at once, and waits when either is pending', async () => {
    expect(both(1, () => 2, pair)).toEqual([1, 2]);
    const waited = both(Promise.resolve(1), () => 2, pair);
    expect(waited).toBeInstanceOf(Promise);
    expect(await waited).toEqual([1, 2]);
    expect(await both(1, () => Promise.resolve(2), pair)).toEqual([1, 2]);
  });

  it('makes the second only after the first, and rejects when either rejects', async () => {
    const order: string[] = [];
    both(
      (order.push('first'), 1),
      () => (order.push('second'), 2),
      pair,
    );
    expect(order).toEqual(['first', 'second']);
    await expect(both(Promise.reject(new Error('first')), () => 2, pair)).rejects.toThrow('first');
    await expect(both(1, () => Promise.reject(new Error('second')), pair)).rejects.toThrow('second');
  });

  it('watches a pending first when making the second throws, so its rejection is not left unhandled', async () => {
    process.on('unhandledRejection', onUnhandled);
    const first = Promise.reject(new Error('first failed'));
    expect(() =>
      both(first, () => {
        throw new Error('second threw');
      }, pair),
    ).toThrow('second threw');
    // Unhandled rejections are reported after the microtask queue drains.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(unhandled).toEqual([]);
  });
});
