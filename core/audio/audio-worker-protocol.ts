import type { AudioInput, AudioJob, AudioResult } from './audio-job';
import type { FfmpegProbe } from './ffmpeg/ffmpeg-probe';
import type { AudioStreamSpec, EncodedPiece } from './stream/audio-stream-types';

/** What every audio worker is told at start. */
export interface AudioWorkerData {
  readonly ffmpegPath?: string;
  /** The starting thread's probe of that ffmpeg, when it had one: the worker then runs none of its own. */
  readonly ffmpegProbe?: FfmpegProbe;
  /** Open streams one worker serves at most. */
  readonly maxStreams: number;
}

export type AudioTask =
  | { readonly kind: 'warm-up' }
  | { readonly kind: 'process'; readonly job: AudioJob }
  | { readonly kind: 'stream-open'; readonly stream: number; readonly spec: AudioStreamSpec }
  | { readonly kind: 'stream-push'; readonly stream: number; readonly input: AudioInput; readonly continuation: boolean }
  | { readonly kind: 'stream-end'; readonly stream: number }
  | { readonly kind: 'stream-close'; readonly stream: number };

/** A processed job, a stream's piece, or nothing (warm-up, open, close). Failures are thrown; the pool keeps their codes. */
export type AudioTaskOutcome = AudioResult | EncodedPiece | undefined;
