import {
  gatewayError,
  type GatewayError,
  parseErrorJson,
  readCommonErrorBody,
  upstreamError,
  type UpstreamErrorAnswer,
  type UpstreamErrorReading,
  type UpstreamFailure,
} from '../../core';

/** MiniMax's `base_resp`, present in every answer (HTTP 200 included). */
export interface BaseResponse {
  readonly status_code?: number;
  readonly status_msg?: string;
}

export const PROVIDER = 'MiniMax';

/**
 * Classes of the codes in MiniMax's error-code table (platform.minimax.io/docs/api-reference/errorcode):
 * 1004 and 2049 mean the key is wrong or inactive, 1008 "insufficient balance" is a billing stop,
 * 1001 is MiniMax's own request timeout; the rate limits are listed below. Other codes are failures
 * (on an HTTP error answer, classed by its status).
 */
const FAILURES: ReadonlyMap<number, UpstreamFailure> = new Map([
  [1004, 'credentials'],
  [2049, 'credentials'],
  [1008, 'quota'],
  [1001, 'timeout'],
]);

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

/** What a non-zero `base_resp.status_code` means; undefined when it says success (0 or absent). */
export function readBaseResponse(base: BaseResponse | undefined): UpstreamErrorReading | undefined {
  const code = base?.status_code;
  if (code === undefined || code === 0) return undefined;
  const retryAfterSeconds = RATE_LIMIT_RETRY_SECONDS.get(code);
  const failure = retryAfterSeconds !== undefined ? 'rate_limit' : FAILURES.get(code);
  return {
    ...(failure ? { failure } : {}),
    providerCode: String(code),
    ...(base?.status_msg ? { providerMessage: base.status_msg } : {}),
    ...(retryAfterSeconds !== undefined ? { retryAfterSeconds } : {}),
  };
}

/**
 * MiniMax often answers HTTP 200 with a non-zero `base_resp.status_code` for a failure: the coded
 * error it means, or undefined when the answer is a success.
 */
export function baseResponseError(base: BaseResponse | undefined, secrets: readonly string[]): GatewayError | undefined {
  const reading = readBaseResponse(base);
  return reading ? upstreamError({ provider: PROVIDER, reading, secrets }) : undefined;
}

/** An HTTP error answer: its `base_resp` when it has one, else the common body shapes. */
export function readMiniMaxError(answer: UpstreamErrorAnswer): UpstreamErrorReading {
  const base = parseErrorJson(answer.text)?.base_resp;
  const reading = base !== null && typeof base === 'object' ? readBaseResponse(base as BaseResponse) : undefined;
  return reading ?? readCommonErrorBody(answer.text);
}

export function unknownModel(model: string): GatewayError {
  return gatewayError('TTS_ERR_MODEL_NOT_FOUND', { provider: PROVIDER, model });
}
