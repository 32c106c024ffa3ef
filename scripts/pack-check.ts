// pnpm pack:check — the packages as they would be published: packs them, then checks the tarballs' contents,
// runs publint and arethetypeswrong on them, compiles a strict TypeScript consumer (skipLibCheck: false, ESM and
// CommonJS) against them, loads them from CommonJS, runs the siterest-migrate bin, and finally runs the embedding
// tests (test/embedding/): an Express and a Fastify app built on the installed tarballs. Needs `pnpm build` first.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { packedConsumer, ROOT, run } from './packed.js';

const bin = (name: string) => join(ROOT, 'node_modules', '.bin', name);
const started = Date.now();
const step = (title: string) => console.log(`\npack:check (${Math.round((Date.now() - started) / 1000)} s) — ${title}`);

step('packing and installing the tarballs outside the workspace');
const { dir, tarballs } = packedConsumer();
console.log(`consumer project: ${dir}`);

step('tarball contents');
for (const [name, tarball] of Object.entries(tarballs)) {
  const files = run('tar', ['tzf', tarball], { capture: true }).trim().split('\n');
  const problems = [];
  if (files.some((f) => f.startsWith('package/src/'))) problems.push('ships src/');
  for (const needed of ['package/LICENSE', 'package/README.md', 'package/package.json']) if (!files.includes(needed)) problems.push(`lacks ${needed}`);
  const manifest = run('tar', ['xzf', tarball, '-O', 'package/package.json'], { capture: true });
  if (manifest.includes('"source"')) problems.push('keeps the "source" export condition');
  if (manifest.includes('workspace:')) problems.push('keeps a workspace: range');
  const json = JSON.parse(manifest);
  for (const field of ['repository', 'homepage', 'bugs', 'license']) if (!json[field]) problems.push(`has no ${field}`);
  if (problems.length) throw new Error(`${name}: ${problems.join(', ')}`);
  console.log(`${name}: ${files.length} files`);
}

step('publint');
for (const name of Object.keys(tarballs)) run(bin('publint'), [join(dir, 'node_modules', name), '--strict', '--pack', 'false']);

step('arethetypeswrong');
for (const [name, tarball] of Object.entries(tarballs)) {
  // @siterest/core/testing is ESM only, as Vitest is: it is checked as such, every other entry for ESM and CommonJS.
  const esmOnly = name === '@siterest/core' ? ['./testing'] : [];
  const others = esmOnly.length ? ['--exclude-entrypoints', ...esmOnly] : [];
  run(bin('attw'), [tarball, '--profile', 'node16', '--format', 'table-flipped', ...others]);
  if (esmOnly.length) run(bin('attw'), [tarball, '--profile', 'esm-only', '--format', 'table-flipped', '--entrypoints', ...esmOnly]);
}

step('a strict TypeScript consumer (skipLibCheck: false), ESM and CommonJS');
const consumer = join(ROOT, 'test', 'embedding', 'consumer');
for (const file of ['consumer.mts', 'consumer.cts', 'smoke.cjs', 'smoke.mjs']) writeFileSync(join(dir, file), readFileSync(join(consumer, file)));
writeFileSync(
  join(dir, 'tsconfig.json'),
  JSON.stringify({
    compilerOptions: {
      strict: true,
      skipLibCheck: false,
      noEmit: true,
      target: 'es2022',
      module: 'nodenext',
      moduleResolution: 'nodenext',
      types: ['node'],
    },
    files: ['consumer.mts', 'consumer.cts'],
  }),
);
run(join(dir, 'node_modules', '.bin', 'tsc'), ['-p', 'tsconfig.json'], { cwd: dir });

step('loading: every entry from CommonJS, and from ESM the testing entry with the main entry\'s classes');
run(process.execPath, ['smoke.cjs'], { cwd: dir });
run(process.execPath, ['smoke.mjs'], { cwd: dir });

step('the siterest-migrate bin');
const help = run(join(dir, 'node_modules', '.bin', 'siterest-migrate'), ['--help'], { cwd: dir, capture: true });
if (!help.includes('Usage: DATABASE_URL=')) throw new Error(`siterest-migrate --help printed: ${help}`);

step('embedding tests: an Express and a Fastify app built on the installed tarballs');
run(bin('vitest'), ['run', '--config', 'vitest.embedding.config.ts'], { cwd: ROOT, env: { ...process.env, SITEREST_CONSUMER: dir } });

console.log('\npack:check passed');
