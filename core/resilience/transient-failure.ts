import { isGatewayError } from '../errors';

/** Upstream HTTP statuses another attempt may cure: request timeout, rate limit, server errors. */
function isTransientStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

function upstreamStatusOf(details: readonly { readonly [key: string]: unknown }[]): number | undefined {
  for (const detail of details) {
    if (typeof detail.upstreamStatus === 'number') return detail.upstreamStatus;
  }
  return undefined;
}

/**
 * Whether a provider failure is worth another attempt and counts against the circuit: network
 * errors, timeouts, unusable answers, rate limits and 5xx (the catalogue's `retryable` codes).
 * A `TTS_ERR_UPSTREAM` is transient only with a transient HTTP status: another 4xx, or a
 * provider's own error code without one, would fail the same way again. Billing stops, bad
 * credentials, the client's own errors and cancellations are never transient. Nor is a refusal
 * for load by the gateway's own workers (`overloaded`): a retry within the request would only
 * wait in the same queue, and a busy gateway is no failing provider for the circuit. A
 * provider's own word (`retryableStated`) overrides the status either way.
 */
export function isTransientFailure(error: unknown): boolean {
  if (!isGatewayError(error) || !error.retryable) return false;
  if (error.details.some((detail) => detail.reason === 'overloaded')) return false;
  // The provider said a retry helps (OpenAI's `x-should-retry: true`): whatever its status.
  if (error.code !== 'TTS_ERR_UPSTREAM' || error.retryableStated === true) return true;
  const status = upstreamStatusOf(error.details);
  return status !== undefined && isTransientStatus(status);
}
