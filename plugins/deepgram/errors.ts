import { gatewayError, type GatewayError, parseErrorJson, readCommonErrorBody, textOf, type UpstreamErrorAnswer, type UpstreamErrorReading } from '../../core';

export const PROVIDER = 'Deepgram';

/**
 * Deepgram's error bodies (developers.deepgram.com/docs/errors) come in two shapes:
 * `{err_code, err_msg, request_id}` and the newer `{category, message, details, request_id}`.
 * A 402 (insufficient credits) is a billing stop by its status alone (core).
 */
export function readDeepgramError(answer: UpstreamErrorAnswer): UpstreamErrorReading {
  const body = parseErrorJson(answer.text);
  // The id Deepgram's support asks for: the body's request_id, else the dg-request-id header.
  const providerRequestId = textOf(body?.request_id) ?? textOf(answer.headers.get('dg-request-id'));
  if (!body || (body.err_code === undefined && body.category === undefined)) return { ...readCommonErrorBody(answer.text), providerRequestId };
  return {
    providerCode: textOf(body.err_code) ?? textOf(body.category),
    providerMessage: textOf(body.err_msg) ?? [textOf(body.message), textOf(body.details)].filter(Boolean).join(': '),
    providerRequestId,
  };
}

export function unknownModel(model: string): GatewayError {
  return gatewayError('TTS_ERR_MODEL_NOT_FOUND', { provider: PROVIDER, model });
}

/** With Aura the voice is the model: a voice of the other family cannot be used. */
export function voiceOfOtherFamily(voice: string, model: string): GatewayError {
  return gatewayError('TTS_ERR_VOICE_NOT_FOUND', { provider: PROVIDER, voice, model });
}
