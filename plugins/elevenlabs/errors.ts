import { gatewayError, type GatewayError, parseErrorJson, readCommonErrorBody, textOf, type AudioFormat, type UpstreamErrorAnswer, type UpstreamErrorReading } from '../../core';

export const PROVIDER = 'ElevenLabs';

/**
 * ElevenLabs answers errors as `{detail: {status, message}}` (help centre, "API - Error Code 400
 * or 401"), except request validation (422), whose `detail` is FastAPI's list `[{loc, msg, type}]`
 * (read by core's common reader). A 401 whose status is `quota_exceeded` is not a bad key: the
 * account has no credits left, a billing stop that retrying cannot fix.
 */
export function readElevenLabsError(answer: UpstreamErrorAnswer): UpstreamErrorReading {
  const detail = parseErrorJson(answer.text)?.detail;
  if (detail === null || typeof detail !== 'object' || Array.isArray(detail)) return readCommonErrorBody(answer.text);
  const fields = detail as Record<string, unknown>;
  const status = textOf(fields.status);
  return {
    providerCode: status,
    providerMessage: textOf(fields.message),
    ...(status === 'quota_exceeded' ? { failure: 'quota' as const } : {}),
  };
}

export function notNativeFormat(format: AudioFormat): GatewayError {
  return gatewayError('TTS_ERR_UNSUPPORTED_FORMAT', { subject: PROVIDER, format, reason: 'not a native format of the provider' });
}
