import { GatewayError, redactSecrets } from '../../core';

/** MiniMax's `base_resp`, present in every answer (HTTP 200 included). */
export interface BaseResponse {
  readonly status_code?: number;
  readonly status_msg?: string;
}

const PROVIDER = 'MiniMax';

/** Codes from MiniMax's error-code table that mean the key is wrong or inactive. */
const AUTH_CODES = new Set([1004, 2049]);

/**
 * Rate limits, with the Retry-After the gateway answers (MiniMax sends none): 1002 (requests per
 * minute), 1039 (tokens per minute) and 2045 (rate growth) are per-minute windows, so 60 s is
 * the wait that surely reaches the next window; 1041 (concurrent connections) frees up as soon
 * as a running call ends, so 5 s.
 */
const RATE_LIMIT_RETRY_SECONDS: ReadonlyMap<number, number> = new Map([
  [1002, 60],
  [1039, 60],
  [2045, 60],
  [1041, 5],
]);

/** MiniMax's own "request timeout". */
const TIMEOUT_CODE = 1001;

/**
 * MiniMax often answers HTTP 200 with a non-zero `base_resp.status_code` for a failure: maps it
 * to core's coded error (auth -> 502 non-retryable, rate -> 429, timeout -> 504, rest -> 502).
 * Returns nothing when the status is success (0 or absent).
 */
export function baseResponseError(base: BaseResponse | undefined, secrets: readonly string[]): GatewayError | undefined {
  const code = base?.status_code;
  if (code === undefined || code === 0) return undefined;
  const providerMessage = redactSecrets(base?.status_msg ?? '', secrets);
  const detail = { reason: 'upstream_status', provider: PROVIDER, providerCode: String(code), ...(providerMessage ? { providerMessage } : {}) };
  const suffix = providerMessage ? `: ${providerMessage}` : '';
  if (AUTH_CODES.has(code)) {
    return new GatewayError('TTS_ERR_UPSTREAM_AUTH', `${PROVIDER} rejected the gateway's credentials (status ${code})${suffix}`, { details: [detail] });
  }
  const retryAfterSeconds = RATE_LIMIT_RETRY_SECONDS.get(code);
  if (retryAfterSeconds !== undefined) {
    return new GatewayError('TTS_ERR_RATE_LIMITED', `${PROVIDER} rate limit reached (status ${code}); retry after ${retryAfterSeconds} s`, {
      details: [detail],
      retryAfterSeconds,
    });
  }
  if (code === TIMEOUT_CODE) {
    return new GatewayError('TTS_ERR_TIMEOUT', `${PROVIDER} timed out (status ${code})${suffix}`, { details: [detail] });
  }
  return new GatewayError('TTS_ERR_UPSTREAM', `${PROVIDER} failed with status ${code}${suffix}`, { details: [detail] });
}
