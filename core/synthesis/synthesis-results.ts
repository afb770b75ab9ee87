import type { AudioFormat } from '../audio/audio-format';
import type { StreamProgress } from './audio-pieces';
import type { AppliedPlan } from './synthesis-plan';
import type { ResultLookup } from '../cache/result-lookup';

/** Who asks and how to stop. */
export interface SynthesisContext {
  readonly requestId: string;
  /** Aborted when the client goes away. */
  readonly signal?: AbortSignal;
  /** The account asking, for the server's limits and usage; a stored file counts against it. */
  readonly accountId?: string;
  /** False when the client opted out of the result cache (`Cache-Control: no-store`). */
  readonly useCache?: boolean;
  /** The result cache's lookup for this request, started ahead (while its limits were checked). */
  readonly resultLookup?: ResultLookup;
}

/** `hit`: no provider was called; `miss`: synthesized (and remembered); `bypass`: the client opted out. */
export type CacheStatus = 'hit' | 'miss' | 'bypass';

export interface SynthesisResult {
  readonly fileName: string;
  readonly size: number;
  readonly format: AudioFormat;
  readonly sampleRate?: number;
  /** Who applied speed, pitch, volume and the format (the server writes it as `X-TTS-Applied`). */
  readonly applied: AppliedPlan;
  /** The provider instance that served the request. */
  readonly provider: string;
  /** The model and voice that served it, after aliases: `espeak-ng/en-us`. */
  readonly servedBy: string;
  /** True when the request had instructions and the model takes none (they were not sent). */
  readonly instructionsIgnored: boolean;
  /** Length of the stored audio, read from its headers; absent when they cannot tell. */
  readonly durationSeconds?: number;
  /** Whether the result cache answered (`X-TTS-Cache`); absent where no cache is in front. */
  readonly cache?: CacheStatus;
}

/** A synthesis being streamed: what it is, and its encoded audio as it is made. */
export interface SynthesisStream extends Omit<SynthesisResult, 'fileName' | 'size'> {
  /** The encoded audio, piece by piece; throws a GatewayError if the synthesis fails midway. */
  readonly chunks: AsyncIterable<Uint8Array>;
  /** Bytes (and, when the gateway encoded, seconds) sent so far. */
  readonly progress: Readonly<StreamProgress>;
}
