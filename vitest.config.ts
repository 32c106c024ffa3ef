import { defineConfig } from 'vitest/config';

export default defineConfig({
  // Workspace packages resolve to their TypeScript sources, so tests need no build step.
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'], externalConditions: ['source'] } },
  test: {
    include: ['packages/*/test/**/*.test.ts', 'examples/*/test/**/*.test.ts', 'test/**/*.test.ts'],
    // Built on the packed packages: run by `pnpm pack:check` (or `pnpm test:embedding`) after a build.
    exclude: ['**/node_modules/**', 'test/embedding/**'],
    environment: 'node',
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    server: { deps: { inline: [/@siterest\//] } },
  },
});
