import type { GatewayError } from '../../core';
import type { ErrorRendering } from '../middleware/error-handler';

/** OpenAI's error body: the SDKs read `error.message`, `type`, `param` and `code`. */
export interface OpenAiErrorBody {
  readonly error: {
    readonly message: string;
    readonly type: string;
    readonly param: string | null;
    readonly code: string | null;
  };
}

interface OpenAiShape {
  readonly status?: number;
  readonly type?: string;
  readonly code?: string;
  readonly param?: string;
}

/**
 * Where OpenAI answers differently from the spec's catalogue: an unknown voice or format is a
 * 400 there (the body is invalid), not a 404 or a 422. Other codes keep their status.
 */
const SHAPES: Readonly<Partial<Record<string, OpenAiShape>>> = {
  TTS_ERR_UNAUTHORIZED: { code: 'invalid_api_key' },
  TTS_ERR_FORBIDDEN: { type: 'permission_error' },
  TTS_ERR_MODEL_NOT_FOUND: { code: 'model_not_found', param: 'model' },
  TTS_ERR_VOICE_NOT_FOUND: { status: 400, code: 'invalid_value', param: 'voice' },
  TTS_ERR_UNSUPPORTED_FORMAT: { status: 400, code: 'invalid_value', param: 'response_format' },
  TTS_ERR_RATE_LIMITED: { type: 'requests', code: 'rate_limit_exceeded' },
};

/**
 * OpenAI answers a request that sent no key at all ("You didn't provide an API key") with
 * `code: null`, and only a wrong one with `invalid_api_key`; clients tell the two apart.
 */
const NO_KEY_SENT: OpenAiShape = {};
const isNoKeySent = (error: GatewayError): boolean => error.code === 'TTS_ERR_UNAUTHORIZED' && error.details.some((detail) => detail.reason === 'missing');

/**
 * A value outside the accepted set (a `response_format` or `stream_format` not in the list) is
 * `invalid_value`, as an unknown voice and a format the gateway cannot make are: one code for
 * one kind of refusal.
 */
const NOT_IN_THE_LIST: OpenAiShape = { code: 'invalid_value' };
const isNotInTheList = (error: GatewayError): boolean => error.code === 'TTS_ERR_VALIDATION' && error.details.some((detail) => detail.reason === 'enum');

/**
 * OpenAI tells a used-up quota (`insufficient_quota`: waiting a minute will not help) from a rate
 * limit; clients branch on it. The gateway's daily character quota is the former.
 */
const QUOTA_USED_UP: OpenAiShape = { type: 'insufficient_quota', code: 'insufficient_quota' };
const isCharacterQuota = (error: GatewayError): boolean =>
  error.code === 'TTS_ERR_RATE_LIMITED' && error.details.some((detail) => detail.reason === 'limit_exceeded' && detail.unit === 'characters');

/** The request fields as OpenAI names them, for `param`. */
const PARAM_NAMES: Readonly<Record<string, string>> = { text: 'input', format: 'response_format' };

function paramOf(error: GatewayError, shape: OpenAiShape | undefined): string | null {
  if (shape?.param) return shape.param;
  const field = error.details.find((detail) => typeof detail.field === 'string')?.field;
  if (field === undefined || error.status >= 500) return null;
  return PARAM_NAMES[field] ?? field;
}

/** The statuses the official SDKs retry on their own (twice by default), unless told `x-should-retry: false`. */
const sdkRetries = (status: number): boolean => status === 408 || status === 409 || status === 429 || status >= 500;

/** The longest Retry-After worth a retry: the JS SDK sleeps through any, however long (a daily quota's, hours). */
const LONGEST_RETRY_WAIT_SECONDS = 60;

/** An answer another attempt cannot change soon: a retry would only repeat the failure (and the provider call). */
const isFinal = (error: GatewayError): boolean => !error.retryable || (error.retryAfterSeconds ?? 0) > LONGEST_RETRY_WAIT_SECONDS;

/** The shape for this error: a special case of its code first, else the code's. */
function shapeOf(error: GatewayError): OpenAiShape | undefined {
  if (isCharacterQuota(error)) return QUOTA_USED_UP;
  if (isNoKeySent(error)) return NO_KEY_SENT;
  if (isNotInTheList(error)) return NOT_IN_THE_LIST;
  return SHAPES[error.code];
}

/**
 * What the SDKs read to decide on a retry: `x-should-retry: false` on a final answer; on one worth
 * retrying, the known wait to the millisecond (`retry-after-ms`, which they read before
 * Retry-After): Retry-After is whole seconds, so a provider's 250 ms wait would cost a full second.
 */
function retryHeaders(error: GatewayError, status: number): Readonly<Record<string, string>> | undefined {
  if (!sdkRetries(status)) return undefined;
  if (isFinal(error)) return { 'x-should-retry': 'false' };
  if (error.retryAfterSeconds === undefined) return undefined;
  return { 'retry-after-ms': String(Math.max(0, Math.round(error.retryAfterSeconds * 1000))) };
}

/** A coded error in OpenAI's shape, at the status OpenAI would use. */
export const renderOpenAiError: ErrorRendering = (error) => {
  const shape = shapeOf(error);
  const status = shape?.status ?? error.status;
  const type = shape?.type ?? (status >= 500 ? 'server_error' : 'invalid_request_error');
  const body: OpenAiErrorBody = { error: { message: error.message, type, param: paramOf(error, shape), code: shape?.code ?? null } };
  const headers = retryHeaders(error, status);
  return { status, body, ...(headers && { headers }) };
};
