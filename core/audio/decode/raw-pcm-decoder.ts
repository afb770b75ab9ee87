import { type PcmAudio } from '../pcm';
import { undecodable } from './decode-error';

/** Decodes raw signed 16-bit little-endian mono PCM; the rate comes from the provider, not the bytes. */
export function decodeRawPcm(bytes: Uint8Array, sampleRate: number | undefined): PcmAudio {
  if (sampleRate === undefined || !Number.isFinite(sampleRate) || sampleRate < 1000) {
    throw undecodable('pcm', 'raw pcm needs a sample rate');
  }
  const frames = Math.floor(bytes.length / 2);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const samples = new Float32Array(frames);
  for (let index = 0; index < frames; index += 1) samples[index] = view.getInt16(index * 2, true) / 32768;
  return { samples, sampleRate };
}
