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
/** The longest entity the SSML escaping writes for one character (`&amp;`; quotes stay as they are). */
const LONGEST_ESCAPE = '&amp;'.length;

/**
 * Polly's limits are 3,000 billed characters and 6,000 in all, but the gateway splits by code points
 * before the plugin escapes: a chunk of 3,000 `&` would become 15,000 characters of SSML. So a chunk
 * is as long as its worst-case escaping still fits in 6,000 (1,180), which also keeps it under
 * 3,000 billed characters whatever Polly counts a character as.
 */
export const POLLY_MAX_CHUNK_CHARACTERS = Math.floor((POLLY_MAX_TEXT_CHARACTERS - PROSODY_MARKUP_RESERVE) / LONGEST_ESCAPE);

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
  maxInputChars: POLLY_MAX_CHUNK_CHARACTERS,
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
