import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

/**
 * `pnpm fuzz`: the property-based suite alone, with long runs. FUZZ_RUNS sets the runs per property (default
 * 2,000 here, 20 in `pnpm test`), FUZZ_SEED replays a printed seed, FUZZ_PATH a failure's shrink path.
 */
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    // Replaces the base list (mergeConfig would add to it and run every test).
    include: ['test/fuzz/**/*.test.ts'],
    env: { FUZZ_RUNS: process.env.FUZZ_RUNS ?? '2000' },
  },
});
