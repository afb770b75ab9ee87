/** The espeak plugin's coded errors: it calls no upstream, so each is its own refusal or fault. */
import { GatewayError, type AudioFormat } from '../../core';

export function cancelled(): GatewayError {
  return new GatewayError('TTS_ERR_CANCELLED', 'espeak synthesis was cancelled');
}

/** A worker answered a task with a result of another kind: a bug, not the caller's fault. */
export function unexpectedResult(kind: string): GatewayError {
  return new GatewayError('TTS_ERR_INTERNAL', `espeak worker answered with an unexpected ${kind} result`);
}

export function unknownModel(model: string): GatewayError {
  return new GatewayError('TTS_ERR_MODEL_NOT_FOUND', `the espeak plugin has no model ${JSON.stringify(model)}`);
}

export function unknownVoice(voiceId: string): GatewayError {
  return new GatewayError('TTS_ERR_VOICE_NOT_FOUND', `espeak-ng has no voice ${JSON.stringify(voiceId)}`, {
    details: [{ field: 'voice', reason: 'unknown voice for model espeak-ng' }],
  });
}

export function notNativeFormat(format: AudioFormat, supported: readonly string[]): GatewayError {
  return new GatewayError('TTS_ERR_UNSUPPORTED_FORMAT', `espeak-ng cannot produce ${format} natively`, {
    details: [{ field: 'format', reason: 'not native', supported }],
  });
}
