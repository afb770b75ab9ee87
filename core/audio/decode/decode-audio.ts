import type { AudioFormat } from '../audio-format';
import type { CodecOptions } from '../codec-options';
import { concatSamples } from '../concat';
import type { PcmAudio } from '../pcm';
import { createStreamDecoder } from './create-stream-decoder';
import { undecodable } from './decode-error';

export { decodableFormats } from './create-stream-decoder';

/**
 * Decodes a whole provider answer of a declared format to mono PCM, with the same decoders as
 * streams. `sampleRate` is required for raw `pcm` (s16le mono) and ignored otherwise.
 * Throws TTS_ERR_UPSTREAM_BAD_RESPONSE on bad bytes.
 */
export async function decodeAudio(bytes: Uint8Array, format: AudioFormat, sampleRate?: number, options?: CodecOptions): Promise<PcmAudio> {
  if (bytes.length === 0) throw undecodable(format, 'empty audio');
  const decoder = createStreamDecoder(format, sampleRate, options);
  try {
    const body = await decoder.write(bytes);
    const tail = await decoder.end();
    if (body.length + tail.length === 0 || decoder.sampleRate === undefined) throw undecodable(format, 'no audio samples');
    const samples = concatSamples([body, tail]);
    return { samples, sampleRate: decoder.sampleRate };
  } finally {
    decoder.dispose();
  }
}
