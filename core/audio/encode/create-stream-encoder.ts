import type { AudioFormat } from '../audio-format';
import type { CodecOptions } from '../codec-options';
import { AacStreamEncoder } from './aac-encoder';
import { isEncodableFormat, unsupportedOutput } from './encodable-formats';
import { encoderInputRate } from './encoder-rates';
import { FlacStreamEncoder } from './flac-encoder';
import { Mp3StreamEncoder } from './mp3-encoder';
import { OggOpusStreamEncoder } from './opus-encoder';
import type { StreamEncoder } from './stream-encoder';
import { RawPcmStreamEncoder, WavStreamEncoder } from './wav-encoder';

/**
 * An encoder for a stream of unknown length. `rate` must already suit the codec
 * (encoderInputRate); `sourceRate` is the original rate, recorded where the format has room.
 */
export async function createStreamEncoder(format: AudioFormat, rate: number, options?: CodecOptions, sourceRate = rate): Promise<StreamEncoder> {
  if (!isEncodableFormat(format, options)) throw unsupportedOutput(format, options);
  if (encoderInputRate(format, rate) !== rate) throw new RangeError(`${rate} Hz cannot be encoded as ${format}`);
  switch (format) {
    case 'wav':
      return new WavStreamEncoder(rate);
    case 'pcm':
      return new RawPcmStreamEncoder(rate);
    case 'mp3':
      return Mp3StreamEncoder.open(rate);
    case 'opus':
      return new OggOpusStreamEncoder(rate, sourceRate);
    case 'flac':
      return FlacStreamEncoder.open(rate);
    case 'aac':
      return new AacStreamEncoder(rate, options);
  }
}
