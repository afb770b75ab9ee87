import { gatewayError, type GatewayError, parseErrorJson, readCommonErrorBody, textOf, type AudioFormat, type UpstreamErrorAnswer, type UpstreamErrorReading } from '../../core';

export const PROVIDER = 'Google Cloud Text-to-Speech';

/** One entry of `error.details` (google.rpc.ErrorInfo, google.rpc.RetryInfo, ...). */
interface GoogleErrorDetail {
  readonly '@type'?: unknown;
  readonly reason?: unknown;
  readonly retryDelay?: unknown;
}

/** `"17s"` or `"0.5s"` (a protobuf Duration in JSON) as whole seconds, rounded up. */
function durationSeconds(value: unknown): number | undefined {
  const seconds = typeof value === 'string' ? Number.parseFloat(value) : Number.NaN;
  return Number.isFinite(seconds) && seconds >= 0 ? Math.ceil(seconds) : undefined;
}

/**
 * Google's error body is `{error: {code, message, status, details}}`; `details` says more than the
 * status line: an ErrorInfo `reason` of `API_KEY_INVALID` comes with HTTP 400 but is a credentials
 * problem, `BILLING_DISABLED` (HTTP 403) is a billing stop, and a RetryInfo `retryDelay` on a 429
 * is the wait when no Retry-After header is sent.
 */
export function readGoogleError(answer: UpstreamErrorAnswer): UpstreamErrorReading {
  const error = parseErrorJson(answer.text)?.error;
  if (error === null || typeof error !== 'object') return readCommonErrorBody(answer.text);
  const fields = error as Record<string, unknown>;
  const details = (Array.isArray(fields.details) ? fields.details : []) as GoogleErrorDetail[];
  const reason = details.map((detail) => textOf(detail?.reason)).find((found) => found !== undefined);
  const retryAfterSeconds = details.map((detail) => durationSeconds(detail?.retryDelay)).find((found) => found !== undefined);
  const failure = reason === 'API_KEY_INVALID' ? 'credentials' : reason === 'BILLING_DISABLED' ? 'quota' : undefined;
  return {
    providerMessage: textOf(fields.message),
    providerCode: reason ?? textOf(fields.status) ?? textOf(fields.code),
    ...(failure ? { failure } : {}),
    ...(retryAfterSeconds !== undefined ? { retryAfterSeconds } : {}),
  };
}

export function unknownModel(model: string): GatewayError {
  return gatewayError('TTS_ERR_MODEL_NOT_FOUND', { provider: PROVIDER, model }, { details: [{ field: 'model', reason: 'unknown' }] });
}

/** A voice's family is in its name: one of another family is refused before any call. */
export function voiceNotInModel(voice: string, model: string): GatewayError {
  return gatewayError('TTS_ERR_VOICE_NOT_FOUND', { provider: PROVIDER, voice, model }, { details: [{ field: 'voice', reason: 'not_in_model' }] });
}

export function notNativeFormat(format: AudioFormat): GatewayError {
  return gatewayError('TTS_ERR_UNSUPPORTED_FORMAT', { subject: PROVIDER, format, reason: 'not a native format of the provider' }, { details: [{ field: 'format', reason: 'not_native' }] });
}
