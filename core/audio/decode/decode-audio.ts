import type { AudioFormat } from '../audio-format';
import type { PcmAudio } from '../pcm';
import { undecodable } from './decode-error';
import { decodeRawPcm } from './raw-pcm-decoder';
import { decodeWav } from './wav-decoder';
import { decodeFlac } from './flac-decoder';
import { decodeMp3, decodeOggOpus } from './wasm-decoders';

/** Formats this engine can decode (AAC has no well-kept WebAssembly decoder on npm). */
export const DECODABLE_FORMATS: readonly AudioFormat[] = ['wav', 'pcm', 'mp3', 'opus', 'flac'];

/**
 * Decodes provider audio of a declared format to mono PCM. `sampleRate` is required for raw
 * `pcm` (s16le mono) and ignored otherwise. Throws TTS_ERR_UPSTREAM_BAD_RESPONSE on bad bytes.
 */
export async function decodeAudio(bytes: Uint8Array, format: AudioFormat, sampleRate?: number): Promise<PcmAudio> {
  if (bytes.length === 0) throw undecodable(format, 'empty audio');
  const decoded = await decodeByFormat(bytes, format, sampleRate);
  if (decoded.samples.length === 0) throw undecodable(format, 'no audio samples');
  return decoded;
}

async function decodeByFormat(bytes: Uint8Array, format: AudioFormat, sampleRate: number | undefined): Promise<PcmAudio> {
  switch (format) {
    case 'wav':
      return decodeWav(bytes);
    case 'pcm':
      return decodeRawPcm(bytes, sampleRate);
    case 'mp3':
      return decodeMp3(bytes);
    case 'opus':
      return decodeOggOpus(bytes);
    case 'flac':
      return decodeFlac(bytes);
    case 'aac':
      throw undecodable(format, 'decoding aac is not supported');
  }
}
