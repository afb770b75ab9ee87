/** What the uniform-semantics test measures on decoded output, and the seam check for joined chunks. */
import type { AudioFormat } from '../../core';
import { decodeForTest, durationSeconds, medianF0, peak, rms, speechDurationSeconds, type PcmAudio } from '../support/audio-analysis';

export interface SpeechMeasures {
  /** Seconds from the first to the last sounding frame. */
  readonly speech: number;
  /** Whole-file seconds. */
  readonly duration: number;
  /** Median fundamental frequency in Hz. */
  readonly f0: number;
  readonly rms: number;
  readonly peak: number;
  /** Largest absolute difference between neighbouring samples (a wrap-around or click shows here). */
  readonly maxStep: number;
}

export function largestStep(samples: Float32Array, from = 1, to = samples.length): number {
  let largest = 0;
  for (let index = Math.max(1, from); index < Math.min(to, samples.length); index += 1) {
    largest = Math.max(largest, Math.abs(samples[index] - samples[index - 1]));
  }
  return largest;
}

export function measurePcm(pcm: PcmAudio): SpeechMeasures {
  return { speech: speechDurationSeconds(pcm), duration: durationSeconds(pcm), f0: medianF0(pcm), rms: rms(pcm), peak: peak(pcm), maxStep: largestStep(pcm.samples) };
}

export async function decodeAndMeasure(bytes: Uint8Array, format: AudioFormat, sampleRate?: number): Promise<{ pcm: PcmAudio; measures: SpeechMeasures }> {
  const pcm = await decodeForTest(bytes, format, sampleRate);
  return { pcm, measures: measurePcm(pcm) };
}

/** `actual / expected` within ±tolerance (0.1 = 10%). */
export function withinRatio(actual: number, expected: number, tolerance = 0.1): boolean {
  return expected > 0 && Math.abs(actual / expected - 1) <= tolerance;
}

/** A message naming what was measured, for assertion failures and the report. */
export function describeRatio(what: string, actual: number, expected: number): string {
  return `${what}: measured ${actual.toFixed(4)}, expected ${expected.toFixed(4)} (ratio ${(actual / expected).toFixed(3)})`;
}

/**
 * Centres (in output samples) of the seams where joined chunks meet: each chunk is resampled to
 * the output rate and overlaps the one before it by `overlapSeconds` (the join's crossfade).
 */
export function seamCentres(chunks: readonly PcmAudio[], outputRate: number, overlapSeconds: number): number[] {
  const overlap = Math.round(overlapSeconds * outputRate);
  const centres: number[] = [];
  let end = 0;
  chunks.forEach((chunk, index) => {
    const length = Math.round((chunk.samples.length * outputRate) / chunk.sampleRate);
    if (index > 0) {
      centres.push(end - overlap / 2);
      end -= overlap;
    }
    end += length;
  });
  return centres;
}

/** The largest neighbour step within ±window of any seam, and the largest everywhere else. */
export function seamSteps(pcm: PcmAudio, centres: readonly number[], windowSeconds = 0.005): { atSeams: number; elsewhere: number } {
  const half = Math.round(windowSeconds * pcm.sampleRate);
  const windows = centres.map((centre) => [Math.max(1, Math.floor(centre - half)), Math.min(pcm.samples.length, Math.ceil(centre + half))] as const);
  let atSeams = 0;
  let elsewhere = 0;
  let cursor = 1;
  for (const [start, end] of windows) {
    elsewhere = Math.max(elsewhere, largestStep(pcm.samples, cursor, start));
    atSeams = Math.max(atSeams, largestStep(pcm.samples, start, end));
    cursor = Math.max(cursor, end);
  }
  elsewhere = Math.max(elsewhere, largestStep(pcm.samples, cursor, pcm.samples.length));
  return { atSeams, elsewhere };
}
