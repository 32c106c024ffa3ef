import { defineConfig } from 'tsup';

export default defineConfig({
  // cli: the siterest-migrate bin (dist/cli.js keeps its shebang).
  entry: { index: 'src/index.ts', cli: 'src/cli.ts' },
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node20',
});
