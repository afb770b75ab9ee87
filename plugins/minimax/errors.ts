import {
  gatewayError,
  type GatewayError,
  parseErrorJson,
  readCommonErrorBody,
  redactSecrets,
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
 * 2056 "usage limit exceeded" asks to wait for the plan's next 5-hour window (no retry within a
 * request's life cures it), 1001 is MiniMax's own request timeout; the rate limits are listed below.
 * 1028 and 1030 (quota exhausted) and 2061 (the model is not in the account's plan) are not in the
 * table; MiniMax's own CLI (MiniMax-AI/cli, src/errors/api.ts) classes all three as the account's
 * quota or plan, to be cured by a top-up or an upgrade, not by retrying. Other codes are failures
 * (on an HTTP error answer, classed by its status).
 */
const FAILURES: ReadonlyMap<number, UpstreamFailure> = new Map([
  [1004, 'credentials'],
  [2049, 'credentials'],
  [1008, 'quota'],
  [1028, 'quota'],
  [1030, 'quota'],
  [2056, 'quota'],
  [2061, 'quota'],
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
 * Codes the error-code table answers with "Please retry your requests later": 1000 (unknown
 * error), 1024 (internal error) and 1033 (system error / a downstream service failed). Inside an
 * HTTP 200 no status tells the gateway's retry layer that they pass, so they are raised as MiniMax
 * being unavailable for now (503, retried).
 */
const RETRY_LATER_CODES: ReadonlySet<number> = new Set([1000, 1024, 1033]);

function passingFailure(code: number, reading: UpstreamErrorReading, secrets: readonly string[]): GatewayError {
  const providerMessage = reading.providerMessage ? redactSecrets(reading.providerMessage, secrets) : undefined;
  return gatewayError('TTS_ERR_UNAVAILABLE', { provider: PROVIDER, reason: `it reported a passing failure (code ${code})` }, {
    details: [{ reason: 'upstream_status', provider: PROVIDER, providerCode: String(code) }],
    ...(providerMessage ? { logContext: { provider: PROVIDER, providerMessage } } : {}),
  });
}

/**
 * Codes that refuse the account something it may not use, which no retry and no other key of the
 * same account cures: 2042 "You don't have access to this voice_id" (English error-code table:
 * another account's cloned voice) and 2038, in the Chinese table only, "用户语音克隆功能被禁用"
 * (voice cloning is disabled until the account's identity is verified). They are 403s, not
 * retried and not an upstream outage.
 */
const ACCESS_REFUSALS: ReadonlyMap<number, string> = new Map([
  [2042, "MiniMax does not give the gateway's account access to this voice (code 2042)"],
  [2038, "MiniMax has disabled voice cloning for the gateway's account until its identity is verified (code 2038)"],
]);

function accessRefusal(code: number, problem: string, reading: UpstreamErrorReading, secrets: readonly string[]): GatewayError {
  const providerMessage = reading.providerMessage ? redactSecrets(reading.providerMessage, secrets) : undefined;
  return gatewayError('TTS_ERR_FORBIDDEN', { problem }, {
    details: [{ reason: 'upstream_status', provider: PROVIDER, providerCode: String(code) }],
    ...(providerMessage ? { logContext: { provider: PROVIDER, providerMessage } } : {}),
  });
}

/** The coded error of a code that needs more than its failure class (a passing failure, a refusal), else undefined. */
function specialFailure(code: number, reading: UpstreamErrorReading, secrets: readonly string[]): GatewayError | undefined {
  if (RETRY_LATER_CODES.has(code)) return passingFailure(code, reading, secrets);
  const refusal = ACCESS_REFUSALS.get(code);
  return refusal === undefined ? undefined : accessRefusal(code, refusal, reading, secrets);
}

/**
 * MiniMax often answers HTTP 200 with a non-zero `base_resp.status_code` for a failure: the coded
 * error it means, or undefined when the answer is a success.
 */
export function baseResponseError(base: BaseResponse | undefined, secrets: readonly string[]): GatewayError | undefined {
  const reading = readBaseResponse(base);
  if (!reading) return undefined;
  return specialFailure(base?.status_code ?? 0, reading, secrets) ?? upstreamError({ provider: PROVIDER, reading, secrets });
}

/** An HTTP error answer: its `base_resp` when it has one (a refusal as its coded error), else the common body shapes. */
export function readMiniMaxError(answer: UpstreamErrorAnswer, secrets: readonly string[] = []): UpstreamErrorReading | GatewayError {
  const base = parseErrorJson(answer.text)?.base_resp;
  if (base === null || typeof base !== 'object') return readCommonErrorBody(answer.text);
  const reading = readBaseResponse(base as BaseResponse);
  if (!reading) return readCommonErrorBody(answer.text);
  const code = (base as BaseResponse).status_code ?? 0;
  const refusal = ACCESS_REFUSALS.get(code);
  return refusal === undefined ? reading : accessRefusal(code, refusal, reading, secrets);
}

export function unknownModel(model: string): GatewayError {
  return gatewayError('TTS_ERR_MODEL_NOT_FOUND', { provider: PROVIDER, model });
}
