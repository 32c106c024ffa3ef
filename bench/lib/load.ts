import autocannon from 'autocannon';

export interface LoadResult {
  requestsPerSecond: number;
  latencyP50: number;
  latencyP99: number;
  errors: number;
  /** CPU time of the server process per request (user + system), when `cpu` was given. */
  cpuMicrosPerRequest?: number;
}

/**
 * Drives a server with autocannon: a short warm-up, then the measured run. With `paths`, each connection asks
 * them in turn (pages and filters vary, as real traffic does), else the URL's own path.
 */
export async function load(url: string, options: { seconds: number; connections: number; paths?: readonly string[] }): Promise<LoadResult> {
  const requests = options.paths?.map((path) => ({ method: 'GET' as const, path }));
  await autocannon({ url, connections: options.connections, duration: Math.max(1, Math.round(options.seconds / 4)), requests });
  const result = await autocannon({ url, connections: options.connections, duration: options.seconds, requests });
  return {
    requestsPerSecond: result.requests.average,
    latencyP50: result.latency.p50,
    latencyP99: result.latency.p99,
    errors: result.errors + result.non2xx,
  };
}

/**
 * Drives several servers in alternation, one-second slices in turn for `seconds` rounds, after a warm-up of each:
 * on a shared machine the others' load then falls on all of them alike, and their ratios stay meaningful.
 */
export async function loadInTurn(
  urls: Record<string, string>,
  options: { seconds: number; connections: number; paths?: readonly string[]; cpu?: () => number | null },
): Promise<Record<string, LoadResult>> {
  const requests = options.paths?.map((path) => ({ method: 'GET' as const, path }));
  const names = Object.keys(urls);
  for (const name of names) await autocannon({ url: urls[name]!, connections: options.connections, duration: 1, requests });
  const totals = Object.fromEntries(names.map((name) => [name, { requests: 0, seconds: 0, errors: 0, cpuMs: 0, p50: [] as number[], p99: [] as number[] }]));
  for (let round = 0; round < options.seconds; round++) {
    for (const name of names) {
      const cpuBefore = options.cpu?.() ?? null;
      const result = await autocannon({ url: urls[name]!, connections: options.connections, duration: 1, requests });
      const cpuAfter = options.cpu?.() ?? null;
      const total = totals[name]!;
      if (cpuBefore !== null && cpuAfter !== null) total.cpuMs += cpuAfter - cpuBefore;
      total.requests += result.requests.total;
      total.seconds += result.duration;
      total.errors += result.errors + result.non2xx;
      total.p50.push(result.latency.p50);
      total.p99.push(result.latency.p99);
    }
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
  return Object.fromEntries(
    names.map((name) => {
      const total = totals[name]!;
      const cpu = options.cpu && total.cpuMs > 0 ? { cpuMicrosPerRequest: (1000 * total.cpuMs) / total.requests } : {};
      return [name, { requestsPerSecond: total.requests / total.seconds, latencyP50: median(total.p50), latencyP99: median(total.p99), errors: total.errors, ...cpu }];
    }),
  );
}
