// Builds every publishable package with tsup (ESM + CJS + type declarations), core first.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const order = ['core', 'store-memory', 'store-postgres', 'adapter-express', 'adapter-fastify'];
for (const name of order) {
  const dir = new URL(`../packages/${name}/`, import.meta.url);
  if (!existsSync(new URL('src/index.ts', dir))) continue;
  console.log(`building @siterest/${name}`);
  const result = spawnSync('tsup', [], { cwd: dir, stdio: 'inherit', shell: process.platform === 'win32' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
