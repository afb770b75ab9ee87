import type { AudioFormat } from '../audio-format';
import type { CodecOptions } from '../codec-options';
import { aacAvailable } from '../ffmpeg/ffmpeg-probe';
import { AacStreamDecoder } from './aac-decoder';
import { undecodable } from './decode-error';
import { FlacStreamDecoder } from './flac-decoder';
import { RawPcmStreamDecoder } from './raw-pcm-decoder';
import type { StreamDecoder } from './stream-decoder';
import { Mp3StreamDecoder, OggOpusStreamDecoder } from './wasm-decoders';
import { WavStreamDecoder } from './wav-decoder';

/** Formats decoded in-process, whatever the host has. */
const BUILT_IN: readonly AudioFormat[] = ['wav', 'pcm', 'mp3', 'opus', 'flac'];

/** Formats this engine can decode here: the built-in ones, and aac when ffmpeg runs. */
export function decodableFormats(options?: CodecOptions): readonly AudioFormat[] {
  return aacAvailable(options) ? [...BUILT_IN, 'aac'] : BUILT_IN;
}

/** A decoder for one answer in `format`; `sampleRate` is required for raw `pcm` (s16le mono). */
export function createStreamDecoder(format: AudioFormat, sampleRate?: number, options?: CodecOptions): StreamDecoder {
  switch (format) {
    case 'wav':
      return new WavStreamDecoder();
    case 'pcm':
      return new RawPcmStreamDecoder(sampleRate);
    case 'mp3':
      return new Mp3StreamDecoder();
    case 'opus':
      return new OggOpusStreamDecoder();
    case 'flac':
      return new FlacStreamDecoder();
    case 'aac':
      if (!aacAvailable(options)) throw undecodable(format, 'decoding aac needs ffmpeg, which is not available');
      return new AacStreamDecoder(options);
  }
}
