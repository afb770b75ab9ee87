import { concatBytes } from '../concat';

/**
 * An encoder fed piece by piece: each call returns the bytes that are complete so far, so
 * audio can leave before the whole is made. Whole files use the same encoders (write once, end).
 */
export interface StreamEncoder {
  /** The rate a decoder of the output yields (48 kHz for Opus, the input rate otherwise). */
  readonly outputRate: number;
  /** Encodes the next mono samples (at the rate the encoder was made for). */
  write(samples: Float32Array): Promise<Uint8Array>;
  /** Flushes the encoder and returns the last bytes; the encoder is then released. */
  end(): Promise<Uint8Array>;
  /** Releases the encoder without output (abort, failure). Idempotent. */
  dispose(): void;
}

/** Samples fed at a time when the caller may stop the encoding: some seconds of speech. */
const CHECKED_SLICE_SAMPLES = 240_000;

/**
 * Runs a whole signal through a stream encoder and returns the complete file. With a
 * `checkpoint` the signal goes in slices and the checkpoint runs between them (it throws to stop).
 */
export async function encodeWhole(encoder: StreamEncoder, samples: Float32Array, checkpoint?: () => void): Promise<Uint8Array> {
  try {
    const parts: Uint8Array[] = [];
    const slice = checkpoint ? CHECKED_SLICE_SAMPLES : Math.max(1, samples.length);
    for (let start = 0; start < samples.length; start += slice) {
      checkpoint?.();
      parts.push(await encoder.write(samples.subarray(start, start + slice)));
    }
    parts.push(await encoder.end());
    return concatBytes(parts);
  } finally {
    encoder.dispose();
  }
}
