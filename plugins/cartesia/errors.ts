import { gatewayError, type GatewayError, parseErrorJson, readCommonErrorBody, textOf, type UpstreamErrorAnswer, type UpstreamErrorReading } from '../../core';

export const PROVIDER = 'Cartesia';

/** Cartesia's error body: `{error_code, title, message, request_id}` (`error_code` may be null). */
export function readCartesiaError(answer: UpstreamErrorAnswer): UpstreamErrorReading {
  const body = parseErrorJson(answer.text);
  if (!body || body.title === undefined) return readCommonErrorBody(answer.text);
  return { providerCode: textOf(body.error_code), providerMessage: textOf(body.message) ?? textOf(body.title) };
}

export function unknownModel(model: string): GatewayError {
  return gatewayError('TTS_ERR_MODEL_NOT_FOUND', { provider: PROVIDER, model });
}
