import type { UpstreamErrorReading } from '../../core';

/** Milliseconds, with the fraction OpenAI's servers may send. */
const MILLISECONDS = /^\d+(?:\.\d+)?$/;

/**
 * OpenAI's own retry headers, as the official SDK obeys them (openai-node src/client.ts):
 * `retry-after-ms`, the wait to the millisecond, preferred over Retry-After; and
 * `x-should-retry: true|false`, its word on whether another attempt can help, over the status.
 * Any other value is no advice at all.
 */
export function readRetryAdvice(headers: Headers): Pick<UpstreamErrorReading, 'retryAfterMs' | 'retryable'> {
  const waitMs = headers.get('retry-after-ms')?.trim();
  const shouldRetry = headers.get('x-should-retry');
  return {
    ...(waitMs !== undefined && MILLISECONDS.test(waitMs) && { retryAfterMs: Number(waitMs) }),
    ...((shouldRetry === 'true' || shouldRetry === 'false') && { retryable: shouldRetry === 'true' }),
  };
}
