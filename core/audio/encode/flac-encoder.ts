import { loadFlac, type FlacLibrary } from '../codecs/flac-library';
import type { PcmAudio } from '../pcm';
import { concatBytes } from '../concat';
import { encodeWhole, type StreamEncoder } from './stream-encoder';

const BITS_PER_SAMPLE = 16;
const COMPRESSION_LEVEL = 5;
/** Samples per libFLAC call: each call's input is copied into libflac.js's heap, which never shrinks. */
const SLICE_SAMPLES = 16384;

/**
 * 16-bit mono FLAC with the reference libFLAC (libflac.js), frames returned as libFLAC makes
 * them. With `totalSamples` the STREAMINFO header holds the length (whole files); without it
 * the length is "unknown", as a stream cannot seek back to write it.
 */
export class FlacStreamEncoder implements StreamEncoder {
  private chunks: Uint8Array[] = [];
  private encoder?: number;

  private constructor(
    private readonly flac: FlacLibrary,
    readonly outputRate: number,
    totalSamples: number,
  ) {
    const encoder = flac.create_libflac_encoder(outputRate, 1, BITS_PER_SAMPLE, COMPRESSION_LEVEL, totalSamples, false);
    if (!encoder) throw new Error('could not create a FLAC encoder');
    this.encoder = encoder;
    const status = flac.init_encoder_stream(encoder, (data, byteCount) => {
      this.chunks.push(data.slice(0, byteCount));
    });
    if (status !== 0) {
      this.dispose();
      throw new Error(`FLAC encoder init status ${status}`);
    }
  }

  static async open(sampleRate: number, totalSamples = 0): Promise<FlacStreamEncoder> {
    return new FlacStreamEncoder(await loadFlac(), sampleRate, totalSamples);
  }

  async write(samples: Float32Array): Promise<Uint8Array> {
    const encoder = this.instance();
    for (let start = 0; start < samples.length; start += SLICE_SAMPLES) {
      const slice = samples.subarray(start, start + SLICE_SAMPLES);
      const integers = new Int32Array(slice.length);
      for (let index = 0; index < slice.length; index += 1) integers[index] = Math.round(Math.max(-1, Math.min(1, slice[index])) * 32767);
      if (!this.flac.FLAC__stream_encoder_process_interleaved(encoder, integers, integers.length)) {
        throw new Error(`FLAC encoding failed in state ${this.flac.FLAC__stream_encoder_get_state(encoder)}`);
      }
    }
    return this.takeChunks();
  }

  async end(): Promise<Uint8Array> {
    this.flac.FLAC__stream_encoder_finish(this.instance());
    const tail = this.takeChunks();
    this.dispose();
    return tail;
  }

  dispose(): void {
    if (this.encoder === undefined) return;
    this.flac.FLAC__stream_encoder_delete(this.encoder);
    this.encoder = undefined;
    this.chunks = [];
  }

  private instance(): number {
    if (this.encoder === undefined) throw new Error('FLAC encoder already ended');
    return this.encoder;
  }

  private takeChunks(): Uint8Array {
    const bytes = concatBytes(this.chunks);
    this.chunks = [];
    return bytes;
  }
}

/** Encodes a whole signal as 16-bit mono FLAC with its length in STREAMINFO. */
export async function encodeFlac(audio: PcmAudio, checkpoint?: () => void): Promise<Uint8Array> {
  return encodeWhole(await FlacStreamEncoder.open(audio.sampleRate, audio.samples.length), audio.samples, checkpoint);
}
