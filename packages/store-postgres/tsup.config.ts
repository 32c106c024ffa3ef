import { defineConfig } from 'tsup';

export default defineConfig({
  // cli: the siterest-migrate command, which bin/siterest-migrate.js loads.
  entry: { index: 'src/index.ts', cli: 'src/cli.ts' },
  format: ['esm', 'cjs'],
  dts: { entry: { index: 'src/index.ts' } },
  clean: true,
  sourcemap: true,
  target: 'node20',
  // import.meta.url for createRequire in the CommonJS build (pg is loaded only when the store makes its own pool).
  shims: true,
});
