/** The espeak plugin's coded errors: it calls no upstream, so each is its own refusal or fault. */
import { gatewayError, type AudioFormat, type GatewayError } from '../../core';
import { ESPEAK_MODEL_NAME } from './models';

export const PROVIDER = 'espeak-ng';

export function cancelled(): GatewayError {
  return gatewayError('TTS_ERR_CANCELLED', { subject: 'espeak synthesis' });
}

/** A worker answered a task with a result of another kind: a bug, not the caller's fault. */
export function unexpectedResult(kind: string): GatewayError {
  return gatewayError('TTS_ERR_INTERNAL', { problem: `an espeak worker answered with an unexpected ${kind} result` });
}

export function unknownModel(model: string): GatewayError {
  return gatewayError('TTS_ERR_MODEL_NOT_FOUND', { provider: PROVIDER, model, served: ESPEAK_MODEL_NAME });
}

export function unknownVoice(voiceId: string): GatewayError {
  return gatewayError('TTS_ERR_VOICE_NOT_FOUND', { provider: PROVIDER, voice: voiceId, model: ESPEAK_MODEL_NAME }, {
    details: [{ field: 'voice', reason: 'unknown voice for model espeak-ng' }],
  });
}

export function notNativeFormat(format: AudioFormat, supported: readonly string[]): GatewayError {
  return gatewayError('TTS_ERR_UNSUPPORTED_FORMAT', { subject: PROVIDER, format, reason: 'not a native format of the provider' }, {
    details: [{ field: 'format', reason: 'not native', supported }],
  });
}
