import type { PcmAudio } from '../pcm';
import { crossfadeInto } from './crossfade';
import { resample } from './resample';

/** Length of the equal-power crossfade at each seam. */
export const SEAM_CROSSFADE_SECONDS = 0.01;

/**
 * Joins chunks into one signal. Chunks at other rates are first resampled to the highest rate
 * among them; at each seam the tail of one chunk and the head of the next overlap with an
 * equal-power (cos/sin) crossfade, so a level jump at the edges cannot click.
 */
export async function joinPcm(chunks: readonly PcmAudio[]): Promise<PcmAudio> {
  if (chunks.length === 0) throw new RangeError('nothing to join');
  const rate = Math.max(...chunks.map((chunk) => chunk.sampleRate));
  const aligned = await Promise.all(chunks.map((chunk) => resample(chunk, rate)));
  if (aligned.length === 1) return aligned[0];
  const fadeLength = Math.round(SEAM_CROSSFADE_SECONDS * rate);
  const overlaps = aligned.slice(1).map((chunk, index) => Math.min(fadeLength, chunk.samples.length, aligned[index].samples.length));
  const total = aligned.reduce((sum, chunk) => sum + chunk.samples.length, 0) - overlaps.reduce((sum, overlap) => sum + overlap, 0);
  const output = new Float32Array(total);
  output.set(aligned[0].samples, 0);
  let end = aligned[0].samples.length;
  aligned.slice(1).forEach((chunk, index) => {
    const overlap = overlaps[index];
    const start = end - overlap;
    crossfadeInto(output, start, output.subarray(0, end), chunk.samples, overlap);
    output.set(chunk.samples.subarray(overlap), end);
    end = start + chunk.samples.length;
  });
  return { samples: output, sampleRate: rate };
}
