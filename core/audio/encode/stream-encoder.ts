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

/** Runs a whole signal through a stream encoder and returns the complete file. */
export async function encodeWhole(encoder: StreamEncoder, samples: Float32Array): Promise<Uint8Array> {
  try {
    const body = await encoder.write(samples);
    const tail = await encoder.end();
    return concatBytes([body, tail]);
  } finally {
    encoder.dispose();
  }
}
