import { type PcmAudio } from '../pcm';
import { undecodable } from './decode-error';
import { WholeSamples } from '../whole-samples';
import type { StreamDecoder } from './stream-decoder';

function checkRate(sampleRate: number | undefined): number {
  if (sampleRate === undefined || !Number.isFinite(sampleRate) || sampleRate < 1000) throw undecodable('pcm', 'raw pcm needs a sample rate');
  return sampleRate;
}

function s16leToFloat(bytes: Uint8Array): Float32Array {
  const frames = Math.floor(bytes.length / 2);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const samples = new Float32Array(frames);
  for (let index = 0; index < frames; index += 1) samples[index] = view.getInt16(index * 2, true) / 32768;
  return samples;
}

/** Decodes raw signed 16-bit little-endian mono PCM; the rate comes from the provider, not the bytes. */
export function decodeRawPcm(bytes: Uint8Array, sampleRate: number | undefined): PcmAudio {
  return { samples: s16leToFloat(bytes), sampleRate: checkRate(sampleRate) };
}

/** Raw s16le in pieces of any length: an odd byte at the end of a piece waits for the next. */
export class RawPcmStreamDecoder implements StreamDecoder {
  readonly sampleRate: number;
  private readonly samples = new WholeSamples();

  constructor(sampleRate: number | undefined) {
    this.sampleRate = checkRate(sampleRate);
  }

  async write(bytes: Uint8Array): Promise<Float32Array> {
    return s16leToFloat(this.samples.take(bytes));
  }

  /** A lone byte left over is half a sample: dropped, as whole-file decoding does. */
  async end(): Promise<Float32Array> {
    return new Float32Array(0);
  }

  dispose(): void {}
}
