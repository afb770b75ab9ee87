import type { AudioFormat } from '../../core';
import { OPUS_SAMPLE_RATE, PCM_SAMPLE_RATE, type PollyEngine } from './models';

/** One gateway format in Polly's terms: its `OutputFormat`, `SampleRate` and answer Content-Type. */
export interface PollyOutput {
  readonly outputFormat: 'mp3' | 'ogg_opus' | 'pcm';
  readonly sampleRate: (engine: PollyEngine) => number;
  /** Content-Types the answer may carry (the bytes are sniffed by the gateway as well). */
  readonly contentTypes: readonly string[];
}

/** mp3 at the engine's own rate, Ogg Opus at its one rate, s16le pcm at 16 kHz. */
export const POLLY_OUTPUTS: Readonly<Partial<Record<AudioFormat, PollyOutput>>> = {
  mp3: { outputFormat: 'mp3', sampleRate: (engine) => engine.mp3SampleRate, contentTypes: ['audio/mpeg'] },
  opus: { outputFormat: 'ogg_opus', sampleRate: () => OPUS_SAMPLE_RATE, contentTypes: ['audio/ogg', 'audio/opus'] },
  pcm: { outputFormat: 'pcm', sampleRate: () => PCM_SAMPLE_RATE, contentTypes: ['audio/pcm'] },
};
