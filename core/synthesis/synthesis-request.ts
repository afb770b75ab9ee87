import type { AudioFormat } from '../audio/audio-format';

/** A validated synthesis request, in the gateway's units (multipliers, 1.0 = unchanged). */
export interface SynthesisRequest {
  readonly model: string;
  readonly voice: string;
  readonly text: string;
  readonly speed: number;
  readonly pitch: number;
  readonly volume: number;
  readonly format: AudioFormat;
  /** Output sample rate where the client needs a fixed one (OpenAI's `pcm` is 24 kHz). */
  readonly sampleRate?: number;
  /** Free-text delivery instructions, for models that take them. */
  readonly instructions?: string;
}

/** The gateway's own range for every multiplier (the spec's 0.5..2.0). */
export const MULTIPLIER_RANGE = { min: 0.5, max: 2 } as const;

/** The spec's text limit, in Unicode code points. */
export const MAX_TEXT_CODE_POINTS = 10_000;
