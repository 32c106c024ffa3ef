import { defineConfig } from 'vitest/config';

/**
 * The embedding tests (test/embedding/): apps built on the packed packages, installed outside the workspace.
 * `pnpm pack:check` runs them after its own checks; they need `pnpm build` first.
 */
export default defineConfig({
  test: {
    include: ['test/embedding/**/*.test.ts'],
    environment: 'node',
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 300_000,
  },
});
