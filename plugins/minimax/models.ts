import type { AudioFormat, ModelCapabilities, ModelInfo } from '../../core';

/** `audio_setting.format` values; `wav` exists for non-streaming calls only (a wav stream is one such call). */
export const MINIMAX_FORMATS: readonly AudioFormat[] = ['mp3', 'wav', 'flac', 'pcm'];

/**
 * One capability set for every model: `speed` 0.5..2 is a rate multiplier; `pitch` is whole
 * semitones -12..+12, i.e. a multiplier 0.5..2.0 (see request-body.ts for the rounding). `vol` is not
 * declared: MiniMax documents only "(0, 10], higher is louder", not a linear amplitude, so the
 * gateway's exact gain does volume. The synchronous T2A call takes text "under 10,000 characters",
 * some ten minutes of audio, which no 30 s `timeoutMs` (nor the gateway's 60 s synthesis deadline)
 * would let finish. A chunk is capped at 1,000 characters: about three and a half minutes of
 * Mandarin (spoken at 4 to 5 characters a second), MiniMax's main language, and about a minute of
 * English (15 characters a second); the gateway synthesizes the chunks in parallel.
 */
const capabilities: ModelCapabilities = {
  formats: MINIMAX_FORMATS,
  speed: { min: 0.5, max: 2 },
  pitch: { min: 0.5, max: 2 },
  maxInputChars: 1000,
};

const described: readonly [string, string][] = [
  ['speech-2.8-hd', 'MiniMax Speech 2.8 HD'],
  ['speech-2.8-turbo', 'MiniMax Speech 2.8 Turbo (low latency)'],
  ['speech-2.6-hd', 'MiniMax Speech 2.6 HD'],
  ['speech-2.6-turbo', 'MiniMax Speech 2.6 Turbo (low latency)'],
  ['speech-2.5-hd-preview', 'MiniMax Speech 2.5 HD (preview)'],
  ['speech-2.5-turbo-preview', 'MiniMax Speech 2.5 Turbo (preview)'],
  ['speech-02-hd', 'MiniMax Speech-02 HD'],
  ['speech-02-turbo', 'MiniMax Speech-02 Turbo'],
  ['speech-01-hd', 'MiniMax Speech-01 HD (previous generation)'],
  ['speech-01-turbo', 'MiniMax Speech-01 Turbo (previous generation)'],
];

/** The fixed model list: MiniMax has no endpoint listing its speech models. */
export const MINIMAX_MODELS: readonly ModelInfo[] = described.map(([name, description]) => ({ name, description, capabilities }));

export function isMiniMaxModel(name: string): boolean {
  return MINIMAX_MODELS.some((model) => model.name === name);
}
