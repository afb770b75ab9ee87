import type { ModelCapabilities, ModelInfo } from '../../core';
import { DEEPGRAM_FORMATS } from './request-body';

/** The REST speak endpoint takes at most 2,000 characters per request. */
const MAX_INPUT_CHARS = 2000;

/**
 * No native speed, pitch or volume: the gateway's DSP does them. Aura-2's `speed` query parameter
 * (0.7..1.5) is documented for its English and Spanish voices only (Deepgram's changelog of
 * 2026-05-04 and "TTS Voice Controls"), but `aura-2` also holds German, French, Dutch, Italian
 * and Japanese voices, and capabilities are declared per model: a native range would have the
 * planner hand a German voice's speed to a parameter that does not serve it. Aura (first
 * generation) has none at all.
 */
const aura2: ModelCapabilities = { formats: DEEPGRAM_FORMATS, maxInputChars: MAX_INPUT_CHARS };
const aura: ModelCapabilities = { formats: DEEPGRAM_FORMATS, maxInputChars: MAX_INPUT_CHARS };

/**
 * The catalog's models are Deepgram's model families (its `architecture`); each voice id is a
 * full Deepgram model id (`aura-2-thalia-en`), sent as `?model=`.
 */
export const DEEPGRAM_MODELS: readonly ModelInfo[] = [
  { name: 'aura-2', description: 'Deepgram Aura-2 (English, Spanish, German, French, Dutch, Italian, Japanese voices)', capabilities: aura2 },
  // Deepgram still serves Aura on /v1/speak but recommends newer models; some resellers
  // (LiveKit Inference) retired it on 13 February 2026.
  { name: 'aura', description: 'Deepgram Aura, first generation (English voices; legacy: Deepgram recommends aura-2)', capabilities: aura },
];

export function isDeepgramModel(name: string): boolean {
  return DEEPGRAM_MODELS.some((model) => model.name === name);
}

/** The family a voice id belongs to: `aura-2-thalia-en` -> aura-2, `aura-asteria-en` -> aura. */
export function familyOfVoice(voice: string): string | undefined {
  if (voice.startsWith('aura-2-')) return 'aura-2';
  return voice.startsWith('aura-') ? 'aura' : undefined;
}
