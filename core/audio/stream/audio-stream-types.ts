import type { AudioFormat } from '../audio-format';
import type { AudioInput } from '../audio-job';

/** What a stream makes of its inputs: one output format, the same DSP throughout. */
export interface AudioStreamSpec {
  readonly output: AudioFormat;
  /** Tempo multiplier without pitch change: 2 = half the duration. */
  readonly speed: number;
  /** Pitch multiplier without tempo change: 2 = one octave up. */
  readonly pitch: number;
  /** Amplitude multiplier, soft-limited below full scale. */
  readonly volume: number;
  /**
   * Output sample rate. Absent: the first input's rate (pcm, wav, flac, aac), or the nearest
   * codec rate not below it (mp3, opus), as whole files get. Inputs at other rates are resampled.
   */
  readonly sampleRate?: number;
}

/** The bytes a stream has ready after one call. */
export interface EncodedPiece {
  /** Bytes ready now (may be empty); the caller owns them (moved, not copied, from the worker). */
  readonly audio: Uint8Array;
  /** The rate a decoder of the output yields (48 kHz for opus); 0 until the first audio is decoded. */
  readonly sampleRate: number;
  /** Output audio produced so far in total, in seconds. */
  readonly durationSeconds: number;
}

export interface PushOptions {
  /**
   * True: these bytes continue the previous input (the same provider answer arriving in pieces
   * of any length, even odd byte counts of raw pcm): no seam. False or absent: a new answer,
   * joined to the previous one with the same 10 ms equal-power crossfade as whole files.
   */
  readonly continuation?: boolean;
}

/**
 * A stateful encoding session living in one audio worker: inputs go in as they arrive, bytes
 * come out as soon as they are final. Calls are served in order. After a rejected push or end
 * the session is released in its worker; further calls reject.
 */
export interface AudioStreamSession {
  /** Adds the next piece of provider audio; returns the bytes that are ready. */
  push(input: AudioInput, options?: PushOptions, signal?: AbortSignal): Promise<EncodedPiece>;
  /** Flushes the DSP and the encoder and returns the last bytes; the session is released. */
  end(signal?: AbortSignal): Promise<EncodedPiece>;
  /** Releases the session's state in its worker without output (abort, failure). Idempotent, never throws. */
  close(): Promise<void>;
}
