import type { PcmAudio } from '../pcm';

/** Level above which the soft limiter starts to bend the curve. */
export const LIMITER_KNEE = 0.9;
/** Level the limiter approaches but never reaches: a little below full scale leaves room for lossy-codec overshoot. */
export const LIMITER_CEILING = 0.98;

/**
 * Soft-limits one sample: identity below the knee, then a tanh curve that meets it with the same
 * slope and approaches (never reaches) the ceiling. Monotonic and odd, so a peak never changes sign.
 */
export function softLimit(value: number): number {
  const magnitude = Math.abs(value);
  if (magnitude <= LIMITER_KNEE) return value;
  const headroom = LIMITER_CEILING - LIMITER_KNEE;
  const limited = LIMITER_KNEE + headroom * Math.tanh((magnitude - LIMITER_KNEE) / headroom);
  return value < 0 ? -limited : limited;
}

/**
 * Multiplies amplitude by `volume` (2 = double RMS) and soft-limits, so loud results bend
 * smoothly below full scale instead of clipping or wrapping around.
 */
export function applyGain(audio: PcmAudio, volume: number): PcmAudio {
  return { samples: gainSamples(audio.samples, volume), sampleRate: audio.sampleRate };
}

/** The same on bare samples (each sample on its own, so pieces of a stream need no state). */
export function gainSamples(input: Float32Array, volume: number): Float32Array {
  const samples = new Float32Array(input.length);
  for (let index = 0; index < samples.length; index += 1) samples[index] = softLimit(input[index] * volume);
  return samples;
}
