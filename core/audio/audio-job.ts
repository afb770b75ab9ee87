import type { AudioFormat } from './audio-format';

/** One piece of provider audio, in the format the provider declared. */
export interface AudioInput {
  readonly audio: Uint8Array;
  readonly format: AudioFormat;
  /** Required for raw `pcm` (s16le mono); ignored for self-describing formats. */
  readonly sampleRate?: number;
  /** Nothing else holds `audio`'s buffer: it is moved to the worker, not copied (the caller's view is emptied). */
  readonly transferable?: boolean;
}

/** What to make of the inputs: joined in order, then tempo, pitch and gain, then one encode. */
export interface AudioJob {
  readonly inputs: readonly AudioInput[];
  /** Tempo multiplier without pitch change: 2 = half the duration. */
  readonly speed: number;
  /** Pitch multiplier without tempo change: 2 = one octave up. */
  readonly pitch: number;
  /** Amplitude multiplier, soft-limited below full scale: 2 = double RMS when there is headroom. */
  readonly volume: number;
  readonly output: AudioFormat;
}

export interface AudioResult {
  readonly audio: Uint8Array;
  readonly format: AudioFormat;
  /** The rate a decoder of `audio` yields; for `pcm` it must travel to the client in a header. */
  readonly sampleRate: number;
  readonly durationSeconds: number;
}
