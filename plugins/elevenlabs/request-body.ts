import type { ProviderSynthesisRequest } from '../../core';
import { notNativeFormat } from './errors';
import type { ElevenLabsOptions } from './options-schema';
import type { VoiceSettings } from './voice-settings';

export interface ElevenLabsCall {
  readonly outputFormat: string;
  /** Set for pcm: the rate the bytes are at. */
  readonly sampleRate?: number;
  readonly body: { text: string; model_id: string; voice_settings?: VoiceSettings };
}

/**
 * Maps a planned request to ElevenLabs' query and body (speed only; pitch and volume are the
 * gateway's). `voiceSettings` is what goes in `voice_settings` when the request has a speed: the
 * voice's stored settings with that speed. Without a speed no `voice_settings` is sent, and the
 * voice speaks with its stored settings.
 */
export function toElevenLabsCall(request: ProviderSynthesisRequest, options: ElevenLabsOptions, voiceSettings?: VoiceSettings): ElevenLabsCall {
  const body = {
    text: request.text,
    model_id: request.model,
    ...(request.speed !== undefined ? { voice_settings: { ...voiceSettings, speed: request.speed } } : {}),
  };
  if (request.format === 'pcm') {
    return { outputFormat: `pcm_${options.pcmSampleRate}`, sampleRate: options.pcmSampleRate, body };
  }
  if (request.format === 'mp3') return { outputFormat: options.mp3OutputFormat, body };
  throw notNativeFormat(request.format);
}
