import { loadFlac } from '../codecs/flac-library';
import type { PcmAudio } from '../pcm';

const BITS_PER_SAMPLE = 16;
const COMPRESSION_LEVEL = 5;

/** Encodes 16-bit mono FLAC with the reference libFLAC (libflac.js). */
export async function encodeFlac(audio: PcmAudio): Promise<Uint8Array> {
  const flac = await loadFlac();
  const length = audio.samples.length;
  // Giving the total length up front makes STREAMINFO correct without seeking back.
  const encoder = flac.create_libflac_encoder(audio.sampleRate, 1, BITS_PER_SAMPLE, COMPRESSION_LEVEL, length, false);
  if (!encoder) throw new Error('could not create a FLAC encoder');
  const chunks: Uint8Array[] = [];
  try {
    const status = flac.init_encoder_stream(encoder, (data, byteCount) => {
      chunks.push(data.slice(0, byteCount));
    });
    if (status !== 0) throw new Error(`FLAC encoder init status ${status}`);
    const samples = new Int32Array(length);
    for (let index = 0; index < length; index += 1) {
      const value = Math.max(-1, Math.min(1, audio.samples[index]));
      samples[index] = Math.round(value * 32767);
    }
    if (length > 0 && !flac.FLAC__stream_encoder_process_interleaved(encoder, samples, length)) {
      throw new Error(`FLAC encoding failed in state ${flac.FLAC__stream_encoder_get_state(encoder)}`);
    }
    flac.FLAC__stream_encoder_finish(encoder);
  } finally {
    flac.FLAC__stream_encoder_delete(encoder);
  }
  const output = new Uint8Array(chunks.reduce((total, chunk) => total + chunk.length, 0));
  let offset = 0;
  for (const chunk of chunks) {
    output.set(chunk, offset);
    offset += chunk.length;
  }
  return output;
}
