// Builds every publishable package with tsup (ESM + CJS + type declarations), core first.
import { spawnSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';

const order = ['core', 'store-memory', 'store-postgres', 'adapter-express', 'adapter-fastify'];
for (const name of order) {
  const dir = new URL(`../packages/${name}/`, import.meta.url);
  if (!existsSync(new URL('src/index.ts', dir))) continue;
  console.log(`building @siterest/${name}`);
  const result = spawnSync('tsup', [], { cwd: dir, stdio: 'inherit', shell: process.platform === 'win32' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

// @siterest/core/testing is ESM only, as Vitest is: no CommonJS copy of it is shipped.
for (const file of ['index.cjs', 'index.cjs.map', 'index.d.cts']) rmSync(new URL(`../packages/core/dist/testing/${file}`, import.meta.url), { force: true });
