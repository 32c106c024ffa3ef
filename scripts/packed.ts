// The publishable packages as a user gets them: packed with pnpm (publishConfig applied, workspace: ranges
// resolved) and installed into a project of their own outside the workspace, next to the frameworks and drivers
// an app would have. Used by pack-check.ts and by the embedding tests (test/embedding/).
import { spawnSync, type SpawnSyncOptions } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const PACKAGES = ['core', 'store-memory', 'store-postgres', 'adapter-express', 'adapter-fastify'];

/** pnpm itself when a pnpm script runs this (fast), else through npx (which looks the version up first). */
const PNPM: [string, string[]] = /pnpm\.c?js$/.test(process.env.npm_execpath ?? '')
  ? [process.execPath, [process.env.npm_execpath!]]
  : ['npx', ['--yes', 'pnpm@10.34.8']];

function pnpm(args: string[], options: SpawnSyncOptions & { capture?: boolean }): string {
  return run(PNPM[0], [...PNPM[1], ...args], options);
}

export function run(command: string, args: string[], options: SpawnSyncOptions & { capture?: boolean } = {}): string {
  const { capture, ...spawnOptions } = options;
  const result = spawnSync(command, args, { stdio: capture ? 'pipe' : 'inherit', encoding: 'utf8', ...spawnOptions });
  if (result.status !== 0) {
    const output = capture ? `\n${String(result.stdout ?? '')}${String(result.stderr ?? '')}` : '';
    throw new Error(`${command} ${args.join(' ')} failed (exit ${result.status ?? result.signal})${output}`);
  }
  return String(result.stdout ?? '');
}

function readJson(path: string): any {
  return JSON.parse(readFileSync(path, 'utf8'));
}

/** The version the workspace pins for a package (root or a package's devDependencies), so the consumer matches it. */
function pinned(name: string): string {
  for (const file of ['package.json', ...PACKAGES.map((p) => `packages/${p}/package.json`)]) {
    const json = readJson(join(ROOT, file));
    const version = json.devDependencies?.[name] ?? json.dependencies?.[name];
    if (version && !version.startsWith('workspace:')) return version;
  }
  throw new Error(`no pinned version of ${name} in the workspace`);
}

/** Packs every package into `dir`; returns { name: tarball path }. Needs a build (dist/). */
export function packAll(dir: string): Record<string, string> {
  mkdirSync(dir, { recursive: true });
  const tarballs: Record<string, string> = {};
  for (const pkg of PACKAGES) {
    const cwd = join(ROOT, 'packages', pkg);
    if (!existsSync(join(cwd, 'dist'))) throw new Error(`packages/${pkg}/dist is missing: run \`pnpm build\` first`);
    const name = readJson(join(cwd, 'package.json')).name;
    pnpm(['pack', '--pack-destination', dir], { cwd, capture: true });
    tarballs[name] = join(dir, `${name.replace('@', '').replace('/', '-')}-${readJson(join(cwd, 'package.json')).version}.tgz`);
    if (!existsSync(tarballs[name])) throw new Error(`pnpm pack did not write ${tarballs[name]}`);
  }
  return tarballs;
}

/**
 * A new project in a temporary directory that depends on the packed tarballs, the frameworks and drivers (and,
 * for type checks, TypeScript and the frameworks' types), installed from the pnpm store where possible.
 */
export function installConsumer(tarballs: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'siterest-consumer-'));
  const files = Object.fromEntries(Object.entries(tarballs).map(([name, path]) => [name, `file:${path}`]));
  const dependency = (...names: string[]) => Object.fromEntries(names.map((name) => [name, pinned(name)]));
  const manifest = {
    name: 'siterest-consumer',
    private: true,
    type: 'module',
    dependencies: {
      ...files,
      ...dependency('express', 'fastify', 'pg', '@electric-sql/pglite', 'vitest'),
    },
    devDependencies: dependency('typescript', '@types/node', '@types/express', '@types/pg'),
    // The packages depend on each other by version range; these are not on a registry yet.
    pnpm: { overrides: files },
  };
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  pnpm(['install', '--prefer-offline', '--config.strict-peer-dependencies=false'], { cwd: dir, capture: true });
  return dir;
}

/** Packs and installs once per process (pack-check hands its consumer to the embedding tests through the env). */
export function packedConsumer(): { dir: string; tarballs: Record<string, string> } {
  const given = process.env.SITEREST_CONSUMER;
  if (given && existsSync(join(given, 'node_modules'))) return { dir: given, tarballs: readJson(join(given, 'tarballs.json')) };
  const tarballs = packAll(mkdtempSync(join(tmpdir(), 'siterest-pack-')));
  const dir = installConsumer(tarballs);
  writeFileSync(join(dir, 'tarballs.json'), JSON.stringify(tarballs));
  return { dir, tarballs };
}
