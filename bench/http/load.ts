/**
 * One load run with autocannon: `connections` keep-alive connections send the same request for a
 * while. Latencies are kept exactly (autocannon's own histogram rounds to whole milliseconds,
 * too coarse for the sub-millisecond differences measured here).
 */
import autocannon from 'autocannon';

export interface LoadRequest {
  readonly url: string;
  readonly method: 'GET' | 'POST';
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
  /** The status every answer must have; any other counts as unexpected. */
  readonly expectStatus: number;
}

export interface LoadResult {
  readonly requests: number;
  readonly requestsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** Answers with another status, plus connection errors and timeouts. */
  readonly unexpected: number;
}

/** The value below which `fraction` of the sorted samples lie (nearest rank). */
function percentile(sorted: Float64Array, fraction: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1));
  return sorted[rank];
}

export function runLoad(request: LoadRequest, connections: number, seconds: number): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    let latencies = new Float64Array(1 << 16);
    let count = 0;
    let unexpected = 0;
    const started = process.hrtime.bigint();
    const instance = autocannon(
      {
        url: request.url,
        method: request.method,
        headers: { ...(request.body !== undefined ? { 'content-type': 'application/json' } : {}), ...request.headers },
        body: request.body,
        connections,
        duration: seconds,
        timeout: 10,
      },
      (error, result) => {
        if (error) {
          reject(error);
          return;
        }
        const elapsedSeconds = Number(process.hrtime.bigint() - started) / 1e9;
        const sorted = latencies.subarray(0, count).sort();
        resolve({
          requests: count,
          requestsPerSecond: count / elapsedSeconds,
          p50Ms: percentile(sorted, 0.5),
          p99Ms: percentile(sorted, 0.99),
          unexpected: unexpected + result.errors, // errors include timeouts
        });
      },
    );
    instance.on('response', (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => {
      if (statusCode !== request.expectStatus) unexpected += 1;
      if (count === latencies.length) {
        const grown = new Float64Array(latencies.length * 2);
        grown.set(latencies);
        latencies = grown;
      }
      latencies[count] = responseTime;
      count += 1;
    });
  });
}
