import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts', 'testing/index': 'src/testing/index.ts', 'demo/index': 'src/demo/index.ts' },
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node20',
  external: ['vitest'],
  // Shared chunks in the CommonJS build too: `@siterest/core/testing` and `/demo` use the same classes as the
  // main entry (Site, ApiError) instead of a copy of their own.
  splitting: true,
});
