import type { ModelCapabilities, ModelInfo } from '../../core';
import { DEEPGRAM_FORMATS } from './output-formats';

/**
 * The REST speak endpoint takes at most 2,000 characters and has no speed, pitch or volume
 * parameter, so the gateway's DSP does all three.
 */
const capabilities: ModelCapabilities = { formats: DEEPGRAM_FORMATS, maxInputChars: 2000 };

/**
 * The catalog's models are Deepgram's model families (its `architecture`); each voice id is a
 * full Deepgram model id (`aura-2-thalia-en`), sent as `?model=`.
 */
export const DEEPGRAM_MODELS: readonly ModelInfo[] = [
  { name: 'aura-2', description: 'Deepgram Aura-2 (English, Spanish, German, French, Dutch, Italian, Japanese voices)', capabilities },
  { name: 'aura', description: 'Deepgram Aura, first generation (English voices)', capabilities },
];

export function isDeepgramModel(name: string): boolean {
  return DEEPGRAM_MODELS.some((model) => model.name === name);
}

/** The family a voice id belongs to: `aura-2-thalia-en` -> aura-2, `aura-asteria-en` -> aura. */
export function familyOfVoice(voice: string): string | undefined {
  if (voice.startsWith('aura-2-')) return 'aura-2';
  return voice.startsWith('aura-') ? 'aura' : undefined;
}
