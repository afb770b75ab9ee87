import { gatewayError, type GatewayError, parseErrorJson, readCommonErrorBody, textOf, type AudioFormat, type UpstreamErrorAnswer, type UpstreamErrorReading } from '../../core';

export const PROVIDER = 'ElevenLabs';

/**
 * ElevenLabs answers errors as `{detail: {type, code, message, status, request_id, param}}`
 * (API reference, "Errors"): `code` names the cause, `status` is its legacy name (still sent,
 * "no longer used"), read when `code` is absent, as older answers carry only `status` and
 * `message` (help centre, "API - Error Code 400 or 401"). Request validation (422) may instead
 * be FastAPI's list `[{loc, msg, type}]` (read by core's common reader). A 401
 * `quota_exceeded` is not a bad key: the account has no credits left, a billing stop that
 * retrying cannot fix.
 */
export function readElevenLabsError(answer: UpstreamErrorAnswer): UpstreamErrorReading {
  const detail = parseErrorJson(answer.text)?.detail;
  if (detail === null || typeof detail !== 'object' || Array.isArray(detail)) return readCommonErrorBody(answer.text);
  const fields = detail as Record<string, unknown>;
  const code = textOf(fields.code) ?? textOf(fields.status);
  return {
    providerCode: code,
    providerMessage: loggedMessage(fields),
    providerRequestId: textOf(fields.request_id),
    ...(code === 'quota_exceeded' || textOf(fields.status) === 'quota_exceeded' ? { failure: 'quota' as const } : {}),
  };
}

/** The message, with the parameter at fault (the request id ElevenLabs' support asks for is logged beside it, unscrubbed). */
function loggedMessage(fields: Record<string, unknown>): string | undefined {
  const param = textOf(fields.param);
  const parts = [textOf(fields.message), param && `(param: ${param})`].filter((part) => part !== undefined);
  return parts.length > 0 ? parts.join(' ') : undefined;
}

export function notNativeFormat(format: AudioFormat): GatewayError {
  return gatewayError('TTS_ERR_UNSUPPORTED_FORMAT', { subject: PROVIDER, format, reason: 'not a native format of the provider' });
}
