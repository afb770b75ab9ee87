import type { AudioFormat, ModelCapabilities, ModelInfo } from '../../core';

export type PollyEngineName = 'standard' | 'neural' | 'long-form' | 'generative';

/** One Polly engine, published as one model. */
export interface PollyEngine {
  readonly model: string;
  readonly engine: PollyEngineName;
  readonly label: string;
  /** The engine's own MP3 rate (Polly's default for it): 22050 for standard, 24000 otherwise. */
  readonly mp3SampleRate: number;
  readonly capabilities: ModelCapabilities;
}

/** PCM is s16le mono at 8000 or 16000 Hz only; 16000 is Polly's default and the better one. */
export const PCM_SAMPLE_RATE = 16_000;

/** `ogg_opus` takes one SampleRate only, "48000" (SynthesizeSpeech API reference). */
export const OPUS_SAMPLE_RATE = 48_000;

/** SynthesizeSpeech takes at most 6,000 characters of `Text` in all, SSML markup included (TextLengthExceededException). */
export const POLLY_MAX_TEXT_CHARACTERS = 6000;
/** Room for `<speak><prosody rate=".." volume="..">` and its closing tags (about 65 characters). */
const PROSODY_MARKUP_RESERVE = 100;

/**
 * mp3, opus (Polly's `ogg_opus`, Opus in Ogg) and pcm are declared; ogg_vorbis is not (Vorbis is
 * not Opus). The API reference puts no engine restriction on `ogg_opus`.
 * Prosody: `rate` 20%..200% and `volume` in dB work on every engine; `pitch` only on standard,
 * as a percentage of the baseline without a documented range, so the gateway does pitch itself.
 */
const capabilities: ModelCapabilities = {
  formats: ['mp3', 'opus', 'pcm'] as readonly AudioFormat[],
  speed: { min: 0.2, max: 2 },
  volume: { min: 0.5, max: 2 },
  // 3,000 billed characters per call (SSML tags are not billed), and 6,000 characters of Text in
  // all: the chunk is escaped inside <prosody>, where 3,000 `&` would be 15,000.
  maxInputChars: 3000,
  maxEscapedInput: { max: POLLY_MAX_TEXT_CHARACTERS - PROSODY_MARKUP_RESERVE, unit: 'characters' },
};

export const POLLY_ENGINES: readonly PollyEngine[] = [
  { model: 'polly-standard', engine: 'standard', label: 'standard', mp3SampleRate: 22_050, capabilities },
  { model: 'polly-neural', engine: 'neural', label: 'neural', mp3SampleRate: 24_000, capabilities },
  { model: 'polly-long-form', engine: 'long-form', label: 'long-form', mp3SampleRate: 24_000, capabilities },
  { model: 'polly-generative', engine: 'generative', label: 'generative', mp3SampleRate: 24_000, capabilities },
];

export function findEngine(model: string): PollyEngine | undefined {
  return POLLY_ENGINES.find((engine) => engine.model === model);
}

export function toModelInfo(engine: PollyEngine): ModelInfo {
  return { name: engine.model, description: `Amazon Polly, ${engine.label} engine`, capabilities: engine.capabilities };
}
