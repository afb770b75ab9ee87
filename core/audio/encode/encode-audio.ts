import { GatewayError } from '../../errors';
import type { AudioFormat } from '../audio-format';
import type { PcmAudio } from '../pcm';
import type { EncodedAudio } from './encoded-audio';
import { encodeFlac } from './flac-encoder';
import { encodeMp3 } from './mp3-encoder';
import { encodeOggOpus } from './opus-encoder';
import { encodeRawPcm, encodeWav } from './wav-encoder';

/** Formats this engine really produces. AAC is absent: no well-kept WebAssembly AAC encoder on npm. */
export const ENCODABLE_FORMATS: readonly AudioFormat[] = ['wav', 'pcm', 'mp3', 'opus', 'flac'];

export function isEncodableFormat(format: AudioFormat): boolean {
  return ENCODABLE_FORMATS.includes(format);
}


/** Encodes mono PCM to `format`; throws TTS_ERR_UNSUPPORTED_FORMAT for formats it cannot make. */
export async function encodeAudio(audio: PcmAudio, format: AudioFormat): Promise<EncodedAudio> {
  switch (format) {
    case 'wav':
      return { audio: encodeWav(audio), sampleRate: audio.sampleRate };
    case 'pcm':
      return { audio: encodeRawPcm(audio), sampleRate: audio.sampleRate };
    case 'mp3':
      return encodeMp3(audio);
    case 'opus':
      // Opus always decodes at 48 kHz, whatever rate it was encoded from.
      return { audio: await encodeOggOpus(audio), sampleRate: 48_000 };
    case 'flac':
      return { audio: await encodeFlac(audio), sampleRate: audio.sampleRate };
    default:
      throw unsupportedOutput(format);
  }
}

/** The error for an output format this engine cannot make. */
export function unsupportedOutput(format: AudioFormat): GatewayError {
  return new GatewayError('TTS_ERR_UNSUPPORTED_FORMAT', `the gateway cannot encode ${format} audio`, {
    details: [{ field: 'format', reason: `supported: ${ENCODABLE_FORMATS.join(', ')}` }],
  });
}
