/**
 * `pnpm bench`: requests per second of the calendar's lists through each adapter, as a ratio to the same framework
 * serving the same bytes for the same paths from a constant, measured in the same run; then a CPU profile of the
 * uncached list; with DATABASE_URL also the PostgreSQL store (see store-postgres.ts). Results go to
 * bench/RESULTS.md, with the machine's load average (the figures are only as quiet as the machine).
 *
 * It measures the packages as published: `pnpm bench` builds them first, and the servers import the built
 * `dist` (tsx loads only the benchmark's own files). Runs before 2026-11-24 22:30 UTC loaded the TypeScript
 * sources through tsx, whose esbuild settings keep function names with a call per closure made: uncached lists
 * then cost about a sixth more than with the built packages.
 *
 *   BENCH_SECONDS=10 BENCH_CONNECTIONS=50 BENCH_EVENTS=10000 BENCH_TAG= pnpm bench
 *
 * BENCH_TAG names the run in RESULTS.md (e.g. `before`), so that runs of two versions can stand side by side.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { topSelfTime } from './lib/cpu-profile.js';
import { load, loadInTurn, type LoadResult } from './lib/load.js';
import { machine, recordSection } from './lib/results.js';
import { startBenchServer } from './lib/server-process.js';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const events = Number(process.env.BENCH_EVENTS ?? 10_000);
const tag = process.env.BENCH_TAG ? ` (${process.env.BENCH_TAG})` : '';
const sectionTag = process.env.BENCH_TAG ? `-${process.env.BENCH_TAG.replace(/[^a-z0-9]+/gi, '-')}` : '';
const loads: string[] = [];
const loadAverage = (when: string) => loads.push(`${when} ${os.loadavg().map((n) => n.toFixed(2)).join(' / ')}`);

/** One request at a time: the latency a single client sees, comparable with the captured WordPress timing. */
const latencies: Record<string, LoadResult> = {};
let paths: string[] = [];
let bytes = 0;
let inProcessMicros: number | undefined;

async function measure(kind: string): Promise<Record<string, LoadResult>> {
  const server = await startBenchServer('events-server.ts', [kind, String(events)]);
  paths = server.paths;
  bytes = server.bytes;
  if (kind === 'memory') inProcessMicros = server.inProcessMicros;
  try {
    const results: Record<string, LoadResult> = {};
    for (const framework of ['express', 'fastify']) {
      // Fastify also serves the breakdown's three routes (events-server.ts), measured in the same turns.
      const variants = framework === 'fastify' && kind === 'memory' ? ['bare', 'bare-text', 'siterest', 'uncached', 'spin', 'pipeline', 'pipeline-twice'] : ['bare', 'bare-text', 'siterest', 'uncached'];
      const names = variants.map((variant) => `${framework}-${variant}`);
      const measured = await loadInTurn(Object.fromEntries(names.map((name) => [name, `http://127.0.0.1:${server.ports[name]}`])), { seconds, connections, paths: server.paths, cpu: server.cpuMs });
      for (const name of names) {
        const r = (results[name] = measured[name]!);
        console.log(`${kind} ${name}: ${Math.round(r.requestsPerSecond)} req/s, p50 ${r.latencyP50} ms, p99 ${r.latencyP99} ms, errors ${r.errors}`);
      }
    }
    for (const name of ['express-siterest', 'express-uncached']) {
      latencies[`${kind} ${name}`] = await load(`http://127.0.0.1:${server.ports[name]}`, { seconds: Math.min(5, seconds), connections: 1, paths: server.paths });
    }
    console.log(`responses: ${bytes} bytes on average`);
    return results;
  } finally {
    await server.stop();
  }
}

function row(framework: string, results: Record<string, LoadResult>): string {
  const bare = results[`${framework}-bare`]!;
  const text = results[`${framework}-bare-text`]!;
  const site = results[`${framework}-siterest`]!;
  const uncached = results[`${framework}-uncached`]!;
  const ratio = (r: LoadResult, to: LoadResult) => (r.requestsPerSecond / to.requestsPerSecond).toFixed(2);
  const cpu = (r: LoadResult) => (r.cpuMicrosPerRequest === undefined ? '–' : r.cpuMicrosPerRequest.toFixed(0));
  return `| ${framework} | ${Math.round(bare.requestsPerSecond)} / ${Math.round(text.requestsPerSecond)} | ${Math.round(site.requestsPerSecond)} | ${ratio(site, bare)} / ${ratio(site, text)} | ${Math.round(uncached.requestsPerSecond)} | ${ratio(uncached, bare)} / ${ratio(uncached, text)} | ${cpu(bare)} / ${cpu(text)} / ${cpu(site)} / ${cpu(uncached)} | ${site.latencyP50} / ${site.latencyP99} | ${site.errors + uncached.errors} |`;
}

/**
 * Where an uncached list's server CPU goes on Fastify: the bare route, the bare route after spinning for the list's
 * in-process cost, after running the uncached pipeline once and twice, and the uncached list itself, all measured
 * in turn.
 */
function breakdown(results: Record<string, LoadResult>): string[] {
  const cpu = (name: string) => results[`fastify-${name}`]?.cpuMicrosPerRequest;
  const bare = cpu('bare');
  if (bare === undefined || inProcessMicros === undefined) return ['(no CPU readings on this system)'];
  const rows: Array<[string, string]> = [
    ['bare route, kept bytes', 'bare'],
    [`bare route after spinning ${inProcessMicros.toFixed(0)} µs (an uncached list's CPU in a loop in the same process)`, 'spin'],
    ['bare route after the uncached pipeline for the request (its answer unsent)', 'pipeline'],
    ['bare route after the uncached pipeline twice (over the row above: the second, warm run)', 'pipeline-twice'],
    ['siterest uncached (the pipeline, its answer sent in pieces)', 'uncached'],
  ];
  return [
    '| Fastify route | server CPU, µs per request | over the bare route | req/s | ratio to bare |',
    '|---|---:|---:|---:|---:|',
    ...rows.map(([label, name]) => {
      const micros = cpu(name);
      const r = results[`fastify-${name}`]!;
      const over = micros === undefined ? '–' : name === 'bare' ? '–' : `+${(micros - bare).toFixed(0)}`;
      return `| ${label} | ${micros?.toFixed(0) ?? '–'} | ${over} | ${Math.round(r.requestsPerSecond)} | ${(r.requestsPerSecond / results['fastify-bare']!.requestsPerSecond).toFixed(2)} |`;
    }),
  ];
}

/** Top self-time functions of the server while it answers the uncached lists (Fastify). */
async function profile(kind: string): Promise<string[]> {
  const directory = mkdtempSync(join(os.tmpdir(), 'siterest-cpu-'));
  const file = join(directory, 'server.cpuprofile');
  try {
    const server = await startBenchServer('events-server.ts', [kind, String(events), 'fastify-uncached'], { env: { ...process.env, BENCH_CPU_PROFILE: file } });
    try {
      await load(`http://127.0.0.1:${server.ports['fastify-uncached']}`, { seconds, connections, paths: server.paths });
    } finally {
      await server.stop();
    }
    return topSelfTime(file, 15).map((entry) => `| ${entry.percent.toFixed(1)} % | \`${entry.name.replace(/\|/g, '\\|')}\` |`);
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

const command = [
  process.env.DATABASE_URL ? 'DATABASE_URL=<a PostgreSQL server>' : '',
  process.env.BENCH_DATABASE ? 'BENCH_DATABASE=<database>' : '',
  `BENCH_SECONDS=${seconds} BENCH_CONNECTIONS=${connections} BENCH_EVENTS=${events}`,
  process.env.BENCH_TAG ? `BENCH_TAG=${process.env.BENCH_TAG}` : '',
  process.env.BENCH_REDIRECTION ? `BENCH_REDIRECTION=${process.env.BENCH_REDIRECTION}` : '',
  process.env.BENCH_STORE_EVENTS ? `BENCH_STORE_EVENTS=${process.env.BENCH_STORE_EVENTS}` : '',
  'pnpm bench',
]
  .filter(Boolean)
  .join(' ');
loadAverage('start:');
const memory = await measure('memory');
loadAverage('after the memory runs:');
const profileRows = await profile('memory');
loadAverage('after the profile:');
const lines = [
  `## Events list, memory store${tag}`,
  '',
  `${paths.length} list requests asked in turn by every connection (pages 1–7, page sizes, a category, a tag, featured, a search, a month, venues, organizers; ${bytes} bytes on average) on ${events.toLocaleString('en')} events in named time zones; autocannon, ${connections} connections; the bare route (twice, see below), siterest and siterest uncached of one framework measured in turn, one-second slices for ${seconds} rounds after a warm-up (the machine is shared: its load falls on all three alike); server in a separate process, warmed up in-process first. The bare route answers each path with the very bytes and headers siterest gives for it, in two ways: "bytes", encoded once beforehand (the least a server can do; siterest's cached answers are written from kept bytes too), and "text", the string as a handler usually sends it (Node measures and encodes it on every request; the only bare route of runs before 2026-11-24). The text is a flat one-byte string, as JSON.stringify gives for this ASCII JSON; in runs before 17:00 UTC on 2026-11-24 it was siterest's joined text, held as a two-byte string, which Node encodes about three times slower: those runs' ratios to text flatter siterest. Ratios are given to both, bytes / text. "server CPU" is the server process's user and system time per request over the same slices (bare bytes / bare text / siterest / uncached): steadier than requests per second on a shared machine.`,
  `Machine: ${machine()}. Date: ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC. Command: \`${command}\`.`,
  `Load average (1 / 5 / 15 min; the machine is shared, figures are noisy): ${loads.join('; ')}.`,
  '"siterest" is the default configuration, where a repeated list is answered from the list-answer cache while the store is unchanged (as The Events Calendar caches its archives); "uncached" does the whole work on every request.',
  '',
  '| framework | bare route, bytes / text (req/s) | siterest (req/s) | ratio to bytes / text | uncached (req/s) | ratio to bytes / text | server CPU, µs per request | siterest p50 / p99 (ms) | errors |',
  '|---|---|---|---|---|---|---|---|---|',
  row('express', memory),
  row('fastify', memory),
  '',
  `Where an uncached list's time goes (Fastify, same turns as above). An uncached list in a loop in the server process, nothing else running, costs ${inProcessMicros?.toFixed(1) ?? '–'} µs of CPU (the 12 paths back to back after a warm-up, lowest of three medians of 7 slices, measured at start-up). Spending that long spinning before the bare answer shows what the same CPU time costs between a server's network events; running the pipeline itself shows what it costs there, and running it twice what a second, warm run costs:`,
  '',
  ...breakdown(memory),
  '',
  `Top self time of the server answering the uncached lists (Fastify; V8's CPU profiler, as \`node --cpu-prof\`, started after seeding; ${seconds} s under the same load; shares of the busy time):`,
  '',
  '| self time | function |',
  '|---:|---|',
  ...profileRows,
];
recordSection(`events-list-memory${sectionTag}`, lines.join('\n'));

if (process.env.DATABASE_URL) {
  const postgres = await measure('postgres');
  loadAverage('after the PostgreSQL runs:');
  const ratio = (framework: string) =>
    (postgres[`${framework}-siterest`]!.requestsPerSecond / memory[`${framework}-siterest`]!.requestsPerSecond).toFixed(2);
  recordSection(
    `events-list-postgres${sectionTag}`,
    [
      `## Events list, PostgreSQL store versus memory store${tag}`,
      '',
      `The same requests and data on the PostgreSQL store (${events.toLocaleString('en')} events, local server, tables analyzed after seeding), same run as above. Load average: ${loads.join('; ')}.`,
      '',
      '| framework | memory (req/s) | PostgreSQL (req/s) | PostgreSQL / memory | memory, uncached | PostgreSQL, uncached | ratio, uncached |',
      '|---|---|---|---|---|---|---|',
      ...['express', 'fastify'].map((f) => {
        const rps = (results: Record<string, LoadResult>, name: string) => Math.round(results[`${f}-${name}`]!.requestsPerSecond);
        const uncachedRatio = (rps(postgres, 'uncached') / rps(memory, 'uncached')).toFixed(2);
        return `| ${f} | ${rps(memory, 'siterest')} | ${rps(postgres, 'siterest')} | ${ratio(f)} | ${rps(memory, 'uncached')} | ${rps(postgres, 'uncached')} | ${uncachedRatio} |`;
      }),
    ].join('\n'),
  );
  // The store-level benchmark seeds and reads a large calendar (a million events by default): only when asked.
  if (process.env.BENCH_STORE_EVENTS) {
    const { runPostgresStoreBench } = await import('./store-postgres.js');
    const report = await runPostgresStoreBench({ events: Number(process.env.BENCH_STORE_EVENTS), log: (line) => console.log(line) });
    recordSection('store-postgres', report.markdown);
  }
}
const captured = readFileSync(new URL('../conformance/captures/index.tsv', import.meta.url), 'utf8')
  .split('\n')
  .find((line) => line.startsWith('030-events-list.json'))
  ?.split('\t')[4];
recordSection(
  `latency${sectionTag}`,
  [
    `## One request at a time${tag}`,
    '',
    `Time per request for the same lists with one connection, requests back to back (Express; 1000 ms ÷ requests per second over 5 s, round trip included). For scale: the captured WordPress with The Events Calendar answered \`GET /wp-json/tribe/events/v1/events\` in ${captured} ms (conformance/captures/index.tsv, 030).`,
    '',
    '| store | cached (ms per request) | uncached (ms per request) |',
    '|---|---|---|',
    ...['memory', 'postgres']
      .filter((kind) => latencies[`${kind} express-siterest`])
      .map((kind) => {
        const c = latencies[`${kind} express-siterest`]!;
        const u = latencies[`${kind} express-uncached`]!;
        return `| ${kind} | ${(1000 / c.requestsPerSecond).toFixed(2)} | ${(1000 / u.requestsPerSecond).toFixed(2)} |`;
      }),
  ].join('\n'),
);
if (process.env.BENCH_REDIRECTION !== '0') {
  const { runRedirectionBench } = await import('./redirection.js');
  recordSection('redirection', await runRedirectionBench());
}
console.log('results written to bench/RESULTS.md');
