/**
 * The Redirection benchmark (part of `pnpm bench`; alone, after `pnpm build`: `tsx bench/redirection.ts`):
 * 10,000 redirects, 1,000 of them regex. Matcher lookups per second in process, then requests per second of
 * an app with the redirect middleware against the same app without it, for a URL nothing matches and for URLs
 * that redirect. Results go to the "redirection" section of bench/RESULTS.md.
 */
import os from 'node:os';
import autocannon from 'autocannon';
import { createSite, manualClock, silentLogger, type RedirectRequest } from '@siterest/core';
import { memoryStore } from '@siterest/store-memory';
import { BENCH_URLS, REDIRECT_COUNT, REGEX_COUNT, seedBenchRedirects } from './lib/seed-redirects.js';
import { machine, recordSection } from './lib/results.js';
import { loadInTurn, type LoadResult } from './lib/load.js';
import { startBenchServer } from './lib/server-process.js';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);

async function lookups(): Promise<Record<keyof typeof BENCH_URLS, number>> {
  const site = createSite({ store: memoryStore(), clock: manualClock('2026-11-21T16:41:37Z'), logger: silentLogger });
  await seedBenchRedirects(site);
  await site.redirects.saveSettings({ ...(await site.redirects.settings()), expire_redirect: -1, track_hits: false });
  const out = {} as Record<keyof typeof BENCH_URLS, number>;
  for (const [name, url] of Object.entries(BENCH_URLS) as Array<[keyof typeof BENCH_URLS, string]>) {
    const request: RedirectRequest = { method: 'GET', url, headers: { host: '127.0.0.1', 'user-agent': 'bench' }, remoteAddress: '127.0.0.1' };
    for (let i = 0; i < 20_000; i++) await site.redirects.handle(request);
    let n = 0;
    const started = performance.now();
    while (performance.now() - started < 2000) {
      for (let i = 0; i < 1000; i++) await site.redirects.handle(request);
      n += 1000;
    }
    out[name] = n / ((performance.now() - started) / 1000);
  }
  await site.close();
  return out;
}

interface Run {
  rps: number;
  p50: number;
  p99: number;
  unexpected: number;
  cpu?: number;
}

async function run(url: string, expected: number): Promise<Run> {
  const options = { url, connections, duration: Math.max(1, Math.round(seconds / 4)) };
  await autocannon(options);
  const result = await autocannon({ ...options, duration: seconds });
  const statuses = result.statusCodeStats as unknown as Record<string, { count: number }>;
  const matching = statuses[String(expected)]?.count ?? 0;
  const total = Object.values(statuses).reduce((n, s) => n + s.count, 0);
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, unexpected: result.errors + total - matching };
}

export async function runRedirectionBench(): Promise<string> {
  const perSecond = await lookups();
  console.log('matcher lookups per second:', perSecond);
  const server = await startBenchServer('redirects-server.ts', []);
  const rows: string[] = [];
  try {
    for (const framework of ['express', 'fastify']) {
      const base = (name: string) => `http://127.0.0.1:${server.ports[`${framework}-${name}`]}`;
      // The two apps on the URL nothing matches, in alternating one-second slices: the ratio is the goal's.
      const inTurn = await loadInTurn({ bare: base('bare') + BENCH_URLS.nothing, redirects: base('redirects') + BENCH_URLS.nothing }, { seconds, connections, cpu: server.cpuMs });
      const asRun = (r: LoadResult): Run => ({ rps: r.requestsPerSecond, p50: r.latencyP50, p99: r.latencyP99, unexpected: r.errors, cpu: r.cpuMicrosPerRequest });
      const bareNothing = asRun(inTurn.bare!);
      const withNothing = asRun(inTurn.redirects!);
      const plain = await run(base('redirects') + BENCH_URLS.plain, 301);
      const regex = await run(base('redirects') + BENCH_URLS.regex, 302);
      const ratio = (r: Run) => (r.rps / bareNothing.rps).toFixed(2);
      for (const [label, r] of [
        ['no match, without the middleware', bareNothing],
        ['no match, with the middleware', withNothing],
        ['plain redirect (301)', plain],
        ['regex redirect (302)', regex],
      ] as const) {
        const cpu = r.cpu === undefined ? '' : r.cpu.toFixed(2);
        rows.push(`| ${framework} | ${label} | ${Math.round(r.rps)} | ${ratio(r)} | ${cpu} | ${r.p50} / ${r.p99} | ${r.unexpected} |`);
        console.log(`${framework} ${label}: ${Math.round(r.rps)} req/s (${ratio(r)})${cpu ? `, ${cpu} µs CPU per request` : ''}`);
      }
    }
  } finally {
    await server.stop();
  }
  const fmt = (n: number) => Math.round(n).toLocaleString('en');
  return [
    '## Redirection: matcher and redirect middleware',
    '',
    `${REDIRECT_COUNT.toLocaleString('en')} redirects, ${REGEX_COUNT.toLocaleString('en')} of them regex, memory store. Machine: ${machine()}. Date: ${new Date().toISOString().slice(0, 10)}. Load average at the end of the run: ${os.loadavg()[0]!.toFixed(1)} (other work on the machine skews the ratios).`,
    '',
    `Matcher lookups per second (\`site.redirects.handle\` in process, one after the other; hit counting and logging off): a URL nothing matches ${fmt(perSecond.nothing)}, a plain redirect ${fmt(perSecond.plain)}, a regex redirect ${fmt(perSecond.regex)}.`,
    '',
    `Requests per second of a small app (every path answers a short page) with the redirect middleware mounted at its root, against the same app without it; autocannon, ${connections} connections, server in a separate process. On the URL nothing matches the two apps are driven in alternating one-second slices for ${seconds} rounds after a warm-up (load from elsewhere falls on both alike); the redirecting URLs for ${seconds} s each after a warm-up. "ratio" is to the app without the middleware on the URL nothing matches (goal ≥ 0.90 for that URL with the middleware). "CPU" is the server process's user and system time per request over the alternating slices (steadier than requests per second: the kernel's share of each request, the socket writes, is most of it). Redirects are counted and logged as in production.`,
    '',
    '| framework | request | req/s | ratio | CPU (µs per request) | p50 / p99 (ms) | unexpected answers |',
    '|---|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  recordSection('redirection', await runRedirectionBench());
  console.log('results written to bench/RESULTS.md');
}
