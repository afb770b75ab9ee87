import type { AudioFormat } from '../audio-format';
import type { CodecOptions } from '../codec-options';
import { resample } from '../dsp/resample';
import type { PcmAudio } from '../pcm';
import { AacStreamEncoder } from './aac-encoder';
import { isEncodableFormat, unsupportedOutput } from './encodable-formats';
import type { EncodedAudio } from './encoded-audio';
import { encoderInputRate } from './encoder-rates';
import { encodeFlac } from './flac-encoder';
import { encodeMp3 } from './mp3-encoder';
import { encodeOggOpus } from './opus-encoder';
import { encodeWhole } from './stream-encoder';
import { encodeRawPcm, encodeWav } from './wav-encoder';

export { encodableFormats, isEncodableFormat, unsupportedOutput } from './encodable-formats';

/**
 * Encodes a whole mono signal to `format`; throws TTS_ERR_UNSUPPORTED_FORMAT for formats it
 * cannot make. `checkpoint` runs between slices of the slower codecs (it throws to stop).
 */
export async function encodeAudio(audio: PcmAudio, format: AudioFormat, options?: CodecOptions, checkpoint?: () => void): Promise<EncodedAudio> {
  if (!isEncodableFormat(format, options)) throw unsupportedOutput(format, options);
  switch (format) {
    case 'wav':
      return { audio: encodeWav(audio), sampleRate: audio.sampleRate };
    case 'pcm':
      return { audio: encodeRawPcm(audio), sampleRate: audio.sampleRate };
    case 'mp3':
      return encodeMp3(audio, checkpoint);
    case 'opus':
      // Opus always decodes at 48 kHz, whatever rate it was encoded from.
      return { audio: await encodeOggOpus(audio, checkpoint), sampleRate: 48_000 };
    case 'flac':
      return { audio: await encodeFlac(audio, checkpoint), sampleRate: audio.sampleRate };
    case 'aac': {
      const rate = encoderInputRate('aac', audio.sampleRate);
      const input = await resample(audio, rate);
      return { audio: await encodeWhole(new AacStreamEncoder(rate, options), input.samples, checkpoint), sampleRate: rate };
    }
  }
}
