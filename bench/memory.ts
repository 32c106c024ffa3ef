/**
 * The memory benchmark (`pnpm bench:memory`; BENCH_MEMORY_SECONDS, default 600): a mixed load on one server for
 * ten minutes — event lists on many pages and searches (cached answers come and go), single events, updates
 * (each one invalidates the calendar's cached answers and fragments), the app's own pages through the redirect
 * middleware and redirects — while the server's resident memory is sampled, and the heap it retains after a full
 * collection is asked once a minute. Flat RSS and a retained heap that levels off after the warm-up mean every
 * cache is bounded. Results go to the "memory" section of bench/RESULTS.md.
 */
import { readFileSync } from 'node:fs';
import os from 'node:os';
import autocannon from 'autocannon';
import { machine, recordSection } from './lib/results.js';
import { startBenchServer } from './lib/server-process.js';

const seconds = Number(process.env.BENCH_MEMORY_SECONDS ?? 600);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 20);
const SAMPLE_MS = 2_000;
const WORDS = ['jazz', 'market', 'workshop', 'concert', 'festival', 'talk', 'run', 'fair', 'night', 'matinee', 'berlin', 'sydney'];

function rssMiB(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'));
  return Number(line?.match(/\d+/)?.[0] ?? 0) / 1024;
}

const pick = <T>(list: readonly T[]): T => list[Math.floor(Math.random() * list.length)]!;

const server = await startBenchServer('memory-server.ts', []);
const ids = (server as unknown as { ids: number[] }).ids;
const port = server.ports.app!;
const pid = server.pid;
let requests = 0;
const route = () => {
  const r = Math.random();
  requests++;
  if (r < 0.45) return { method: 'GET' as const, path: `/api/cal/events/v1/events?page=${1 + Math.floor(Math.random() * 60)}` };
  if (r < 0.55) return { method: 'GET' as const, path: `/api/cal/events/v1/events?search=${pick(WORDS)}&per_page=${pick([5, 10, 25, 50])}` };
  if (r < 0.65) return { method: 'GET' as const, path: `/api/cal/events/v1/events/${pick(ids)}` };
  if (r < 0.7) return { method: 'GET' as const, path: `/api/cal/events/v1/venues?page=${1 + Math.floor(Math.random() * 5)}` };
  if (r < 0.72) {
    return {
      method: 'POST' as const,
      path: `/api/cal/events/v1/events/${pick(ids)}`,
      headers: { 'x-bench-role': 'administrator', 'content-type': 'application/json' },
      body: JSON.stringify({ title: `${pick(WORDS)} ${Math.floor(Math.random() * 1e6)}` }),
    };
  }
  if (r < 0.8) {
    const i = Math.floor(Math.random() * 9000);
    return { method: 'GET' as const, path: `/old/section-${i % 50}/page-${i}` };
  }
  return { method: 'GET' as const, path: `/blog/${Math.floor(Math.random() * 1e6)}?utm_source=${pick(WORDS)}` };
};

const samples: Array<{ at: number; rss: number }> = [];
const started = Date.now();
const sampler = setInterval(() => samples.push({ at: (Date.now() - started) / 1000, rss: rssMiB(pid!) }), SAMPLE_MS);
samples.push({ at: 0, rss: rssMiB(pid!) });
// Once a minute, the heap the server retains after a full collection: whether RSS grows because something is kept
// (a leak, an unbounded cache) or because of how the allocator and V8 hold pages.
const retained: Array<{ minute: number; heap: number; external: number }> = [];
const askHeap = async (minute: number) => {
  const response = await fetch(`http://127.0.0.1:${port}/bench/heap`);
  const { heapUsed, external } = (await response.json()) as { heapUsed: number; external: number };
  retained.push({ minute, heap: heapUsed / 2 ** 20, external: external / 2 ** 20 });
};
let asking: Promise<void> = Promise.resolve();
const heapTimer = setInterval(() => void (asking = askHeap(Math.round((Date.now() - started) / 60_000))), 60_000);
const result = await autocannon({
  url: `http://127.0.0.1:${port}`,
  connections,
  duration: seconds,
  requests: [{ setupRequest: (request) => ({ ...request, ...route() }) }],
});
clearInterval(sampler);
clearInterval(heapTimer);
samples.push({ at: (Date.now() - started) / 1000, rss: rssMiB(pid!) });
await asking;
if (retained.length === 0 || retained.at(-1)!.minute < seconds / 60) await askHeap(Math.ceil(seconds / 60));
await server.stop();

// After the first minute (caches filling up), resident memory should no longer grow: a least-squares slope.
const steady = samples.filter((s) => s.at >= Math.min(60, seconds / 4));
const meanAt = steady.reduce((n, s) => n + s.at, 0) / steady.length;
const meanRss = steady.reduce((n, s) => n + s.rss, 0) / steady.length;
const slope = steady.reduce((n, s) => n + (s.at - meanAt) * (s.rss - meanRss), 0) / Math.max(1e-9, steady.reduce((n, s) => n + (s.at - meanAt) ** 2, 0));
// The lowest resident set of each minute: right after a collection, so a leak shows there first.
const troughs: Array<{ minute: number; rss: number }> = [];
for (let minute = 1; minute * 60 <= Math.ceil(seconds / 60) * 60; minute++) {
  const inMinute = samples.filter((s) => s.at > (minute - 1) * 60 && s.at <= minute * 60);
  if (inMinute.length) troughs.push({ minute, rss: Math.min(...inMinute.map((s) => s.rss)) });
}
const laterTroughs = troughs.filter((t) => t.minute >= 2);
const troughSlope = laterTroughs.length > 1 ? (laterTroughs.at(-1)!.rss - laterTroughs[0]!.rss) / (laterTroughs.at(-1)!.minute - laterTroughs[0]!.minute) : 0;
/** The retained heap's change from the second minute to the last, per minute: what a leak would show. */
function heapTrend(): string {
  const later = retained.filter((r) => r.minute >= 2);
  if (later.length < 2) return '';
  const first = later[0]!;
  const last = later.at(-1)!;
  const perMinute = (last.heap + last.external - first.heap - first.external) / (last.minute - first.minute);
  return `; from minute ${first.minute} to ${last.minute}, ${perMinute >= 0 ? '+' : ''}${perMinute.toFixed(2)} MiB per minute`;
}
const statuses = result.statusCodeStats as unknown as Record<string, { count: number }>;
const every = (n: number) => samples.filter((_, i) => i % n === 0 || i === samples.length - 1);
const fmt = (n: number) => n.toFixed(0);
const markdown = [
  '## Memory: resident set over a mixed load',
  '',
  `One Fastify server, memory store, 10,000 events, 10,000 redirects, answer cache and fragments on (defaults), the site clock running; autocannon, ${connections} connections, ${seconds} s of a mixed load: event lists on 60 pages and 48 searches (45 % and 10 %), single events (10 %), venue lists (5 %), event updates as an administrator (2 %, each invalidating the calendar's cached answers and fragments), redirected URLs (8 %) and the app's own pages through the redirect middleware (20 %); redirect and 404 logs off (they are data kept by design). Machine: ${machine()}. Date: ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC. Load average at the end: ${os.loadavg()[0]!.toFixed(1)}. Command: \`BENCH_MEMORY_SECONDS=${seconds} pnpm bench:memory\`.`,
  '',
  `${Math.round(result.requests.total).toLocaleString('en')} requests (${Math.round(result.requests.average)} per second; statuses ${Object.entries(statuses).map(([code, s]) => `${code}: ${s.count}`).join(', ')}; ${result.errors} errors). Resident set (MiB): at start ${fmt(samples[0]!.rss)}, after the first minute ${fmt(steady[0]?.rss ?? 0)}, at the end ${fmt(samples.at(-1)!.rss)}, highest ${fmt(Math.max(...samples.map((s) => s.rss)))}; slope after the first minute ${(slope * 60).toFixed(2)} MiB per minute (sampled every ${SAMPLE_MS / 1000} s). Lowest of each minute (MiB): ${troughs.map((t) => fmt(t.rss)).join(', ')}; from the second minute to the last, ${troughSlope >= 0 ? '+' : ''}${troughSlope.toFixed(2)} MiB per minute.`,
  '',
  `Heap retained after a full collection, asked once a minute (MiB, V8's heap in use / external memory such as buffers): ${retained.map((r) => `${r.minute}: ${r.heap.toFixed(1)} / ${r.external.toFixed(1)}`).join(', ')}${heapTrend()}.`,
  '',
  '| second | RSS (MiB) |',
  '|---:|---:|',
  ...every(Math.max(1, Math.round(samples.length / 20))).map((s) => `| ${fmt(s.at)} | ${fmt(s.rss)} |`),
].join('\n');
recordSection('memory', markdown);
console.log(markdown);
console.log(`${requests} requests set up`);
