import { gatewayError, type GatewayError, type AudioFormat } from '../../core';

export const PROVIDER = 'Azure Speech';

/**
 * Azure's error answers need no reading of their own: a 401 carries `{error: {code, message}}`
 * (core's common shape), 400, 429 and 5xx come with an empty body, and the HTTP status says it
 * all. The errors below are the plugin's own refusals, raised before any call.
 */
export function unknownModel(model: string, served: string): GatewayError {
  return gatewayError('TTS_ERR_MODEL_NOT_FOUND', { provider: PROVIDER, model, served }, {
    details: [{ field: 'model', reason: 'unknown_model', model }],
  });
}

export function notNativeFormat(format: AudioFormat): GatewayError {
  return gatewayError('TTS_ERR_UNSUPPORTED_FORMAT', { subject: PROVIDER, format, reason: 'not a native format of the provider' }, {
    details: [{ field: 'format', reason: 'not_native', format }],
  });
}
