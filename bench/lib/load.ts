import autocannon from 'autocannon';

export interface LoadResult {
  requestsPerSecond: number;
  latencyP50: number;
  latencyP99: number;
  errors: number;
}

/** Drives one URL with autocannon: a short warm-up, then the measured run. */
export async function load(url: string, options: { seconds: number; connections: number }): Promise<LoadResult> {
  await autocannon({ url, connections: options.connections, duration: Math.max(1, Math.round(options.seconds / 4)) });
  const result = await autocannon({ url, connections: options.connections, duration: options.seconds });
  return {
    requestsPerSecond: result.requests.average,
    latencyP50: result.latency.p50,
    latencyP99: result.latency.p99,
    errors: result.errors + result.non2xx,
  };
}
