import { expect } from 'vitest';

/**
 * Runs `work` and expects it done within `ms` milliseconds. Used with inputs long enough that a quadratic transform
 * takes seconds and a linear one milliseconds, so the limit leaves room for a busy machine.
 */
export function expectWithin(ms: number, work: () => unknown): void {
  const started = performance.now();
  work();
  expect(performance.now() - started).toBeLessThan(ms);
}
