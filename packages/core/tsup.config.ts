import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts', 'testing/index': 'src/testing/index.ts', 'demo/index': 'src/demo/index.ts' },
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node20',
  external: ['vitest'],
  // Shared chunks in both builds: `@siterest/core/testing` and `/demo` use the main entry's classes (Site,
  // ApiError), never a copy of their own.
  splitting: true,
  // The testing entry is ESM only, as Vitest is (it refuses to be required): scripts/build.mjs removes its
  // CommonJS files after the build.
});
