import autocannon from 'autocannon';

export interface LoadResult {
  requestsPerSecond: number;
  latencyP50: number;
  latencyP99: number;
  errors: number;
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
