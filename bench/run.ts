/**
 * `pnpm bench`: requests per second of the events list through each adapter, as a ratio to the same framework
 * serving the same bytes from a constant, measured in the same run; with DATABASE_URL also the PostgreSQL
 * store (see store-postgres.ts). Results go to bench/RESULTS.md.
 */
import { readFileSync } from 'node:fs';
import { load, type LoadResult } from './lib/load.js';
import { machine, recordSection } from './lib/results.js';
import { startBenchServer } from './lib/server-process.js';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const events = Number(process.env.BENCH_EVENTS ?? 10_000);

/** One request at a time: the latency a single client sees, comparable with the captured WordPress timing. */
const latencies: Record<string, LoadResult> = {};

async function measure(kind: string): Promise<Record<string, LoadResult>> {
  const server = await startBenchServer('events-server.ts', [kind, String(events)]);
  try {
    const results: Record<string, LoadResult> = {};
    for (const name of ['express-bare', 'express-siterest', 'express-uncached', 'fastify-bare', 'fastify-siterest', 'fastify-uncached']) {
      const url = `http://127.0.0.1:${server.ports[name]}${server.path}`;
      results[name] = await load(url, { seconds, connections });
      const r = results[name]!;
      console.log(`${kind} ${name}: ${Math.round(r.requestsPerSecond)} req/s, p50 ${r.latencyP50} ms, p99 ${r.latencyP99} ms, errors ${r.errors}`);
    }
    for (const name of ['express-siterest', 'express-uncached']) {
      latencies[`${kind} ${name}`] = await load(`http://127.0.0.1:${server.ports[name]}${server.path}`, { seconds: 5, connections: 1 });
    }
    console.log(`response: ${server.bytes} bytes`);
    return results;
  } finally {
    server.stop();
  }
}

function row(framework: string, results: Record<string, LoadResult>): string {
  const bare = results[`${framework}-bare`]!;
  const site = results[`${framework}-siterest`]!;
  const uncached = results[`${framework}-uncached`]!;
  const ratio = (r: LoadResult) => (r.requestsPerSecond / bare.requestsPerSecond).toFixed(2);
  return `| ${framework} | ${Math.round(bare.requestsPerSecond)} | ${Math.round(site.requestsPerSecond)} | ${ratio(site)} | ${Math.round(uncached.requestsPerSecond)} | ${ratio(uncached)} | ${site.latencyP50} / ${site.latencyP99} | ${site.errors + uncached.errors} |`;
}

const memory = await measure('memory');
const lines = [
  `## Events list, memory store`,
  '',
  `\`GET /api/cal/events/v1/events\` (default window, first page of 10) on ${events.toLocaleString('en')} events; autocannon, ${connections} connections, ${seconds} s after a warm-up, server in a separate process.`,
  `Machine: ${machine()}. Date: ${new Date().toISOString().slice(0, 10)}.`,
  '"siterest" is the default configuration, where a repeated list is answered from the list-answer cache while the store is unchanged (as The Events Calendar caches its archives); "uncached" does the whole work on every request.',
  '',
  '| framework | bare route, same bytes (req/s) | siterest (req/s) | ratio | uncached (req/s) | ratio | siterest p50 / p99 (ms) | errors |',
  '|---|---|---|---|---|---|---|---|',
  row('express', memory),
  row('fastify', memory),
];
recordSection('events-list-memory', lines.join('\n'));

if (process.env.DATABASE_URL) {
  const postgres = await measure('postgres');
  const ratio = (framework: string) =>
    (postgres[`${framework}-siterest`]!.requestsPerSecond / memory[`${framework}-siterest`]!.requestsPerSecond).toFixed(2);
  recordSection(
    'events-list-postgres',
    [
      '## Events list, PostgreSQL store versus memory store',
      '',
      `The same request and data on the PostgreSQL store (${events.toLocaleString('en')} events, local server), same run as above.`,
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
  const { runPostgresStoreBench } = await import('./store-postgres.js');
  const report = await runPostgresStoreBench({});
  recordSection('store-postgres', report.markdown);
}
const captured = readFileSync(new URL('../conformance/captures/index.tsv', import.meta.url), 'utf8')
  .split('\n')
  .find((line) => line.startsWith('030-events-list.json'))
  ?.split('\t')[4];
recordSection(
  'latency',
  [
    '## One request at a time',
    '',
    `Time per request for the same events list with one connection, requests back to back (Express; 1000 ms ÷ requests per second over 5 s, round trip included). For scale: the captured WordPress with The Events Calendar answered \`GET /wp-json/tribe/events/v1/events\` in ${captured} ms (conformance/captures/index.tsv, 030).`,
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
const { runRedirectionBench } = await import('./redirection.js');
recordSection('redirection', await runRedirectionBench());
console.log('results written to bench/RESULTS.md');
