import type { TaskCost } from '../workers';
import type { AudioJob } from './audio-job';
import { readWavInfo, wavFrameBytes } from './decode/wav-decoder';

/** Bytes per second of a typical compressed input (64 kbit/s), when its length cannot be read cheaply. */
const COMPRESSED_BYTES_PER_SECOND = 8000;

/** Seconds of one input, read from what is cheap to read (raw pcm, WAV headers), else guessed from its size. */
function inputSeconds(input: AudioJob['inputs'][number]): number {
  if (input.format === 'pcm' && input.sampleRate) return input.audio.byteLength / 2 / input.sampleRate;
  if (input.format === 'wav') {
    try {
      const info = readWavInfo(input.audio);
      return info.dataBytes / (info.sampleRate * wavFrameBytes(info));
    } catch {
      // Not readable: the job will refuse it; guess like the rest.
    }
  }
  return input.audio.byteLength / COMPRESSED_BYTES_PER_SECOND;
}

/** A job's work for the pool's wait estimates: seconds of audio in, per output format. */
export function audioJobCost(job: AudioJob): TaskCost {
  return { kind: `process:${job.output}`, units: job.inputs.reduce((total, input) => total + inputSeconds(input), 0) };
}
