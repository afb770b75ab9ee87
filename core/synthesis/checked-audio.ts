import type { AudioFormat } from '../audio/audio-format';
import { sniffAudioFormat } from '../audio';
import { GatewayError } from '../errors';
import type { PluginLogger, ProviderAudio } from '../plugin/contract';
import type { AudioChunk } from './ports';

/**
 * Trusts the bytes, not the label: a provider that says mp3 but sends WAV is taken at its
 * bytes (and logged); bytes that are no known audio are the provider's fault (502).
 */
export function checkProviderAudio(instanceId: string, audio: ProviderAudio, logger: PluginLogger): AudioChunk {
  if (audio.audio.byteLength === 0) throw unusableAudio(instanceId, 'empty audio');
  if (audio.format === 'pcm') {
    if (!audio.sampleRate) throw unusableAudio(instanceId, 'pcm without a sample rate');
    return { audio: audio.audio, format: 'pcm', sampleRate: audio.sampleRate };
  }
  const sniffed: AudioFormat | undefined = sniffAudioFormat(audio.audio);
  if (sniffed === undefined) throw unusableAudio(instanceId, `bytes labelled ${audio.format} are no known audio format`);
  if (sniffed !== audio.format) {
    logger.warn('provider audio format differs from its label', { provider: instanceId, labelled: audio.format, actual: sniffed });
  }
  return { audio: audio.audio, format: sniffed, sampleRate: audio.sampleRate };
}

/** A provider answer that is not usable audio: the provider's fault (502). */
export function unusableAudio(instanceId: string, what: string): GatewayError {
  return new GatewayError('TTS_ERR_UPSTREAM_BAD_RESPONSE', `${instanceId} sent unusable audio: ${what}`, {
    details: [{ reason: 'unusable_audio', provider: instanceId }],
  });
}
