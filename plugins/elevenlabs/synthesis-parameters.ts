import { GatewayError, type AudioFormat, type NumberRange, type ProviderSynthesisRequest } from '../../core';
import type { ElevenLabsOptions } from './options-schema';

/** ElevenLabs' documented `voice_settings.speed` range; outside it the gateway's DSP works. */
export const ELEVENLABS_SPEED: NumberRange = { min: 0.7, max: 1.2 };

/**
 * Natively returned formats. Not declared: wav (the gateway wraps pcm itself, byte for byte
 * the same), opus (ElevenLabs does not document the container of `opus_48000_*`), aac and flac
 * (not offered): the gateway transcodes from pcm.
 */
export const ELEVENLABS_FORMATS: readonly AudioFormat[] = ['mp3', 'pcm'];

export interface ElevenLabsCall {
  readonly outputFormat: string;
  /** Set for pcm: the rate the bytes are at. */
  readonly sampleRate?: number;
  readonly body: { text: string; model_id: string; voice_settings?: { speed: number } };
}

/** Maps a planned request to ElevenLabs' query and body (speed only; pitch and volume are the gateway's). */
export function toElevenLabsCall(request: ProviderSynthesisRequest, options: ElevenLabsOptions): ElevenLabsCall {
  const body = {
    text: request.text,
    model_id: request.model,
    ...(request.speed !== undefined ? { voice_settings: { speed: request.speed } } : {}),
  };
  if (request.format === 'pcm') {
    return { outputFormat: `pcm_${options.pcmSampleRate}`, sampleRate: options.pcmSampleRate, body };
  }
  if (request.format === 'mp3') return { outputFormat: options.mp3OutputFormat, body };
  throw new GatewayError('TTS_ERR_UNSUPPORTED_FORMAT', `ElevenLabs does not return ${request.format} natively`);
}
