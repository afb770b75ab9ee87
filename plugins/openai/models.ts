import type { AudioFormat, ModelInfo } from '../../core';

/** Formats `response_format` takes; `pcm` is 24 kHz 16-bit signed little-endian mono. */
export const OPENAI_FORMATS: readonly AudioFormat[] = ['mp3', 'opus', 'aac', 'flac', 'wav', 'pcm'];

/** OpenAI's pcm output rate. */
export const OPENAI_PCM_SAMPLE_RATE = 24000;

interface OpenAiModel extends ModelInfo {
  /** Only the classic voices (tts-1, tts-1-hd) or every built-in voice. */
  readonly voiceSet: 'classic' | 'all';
  /** Whether the `instructions` field is accepted. */
  readonly takesInstructions: boolean;
}

const capabilities = {
  formats: OPENAI_FORMATS,
  speed: { min: 0.25, max: 4.0 },
  maxInputChars: 4096,
  pcmSampleRate: OPENAI_PCM_SAMPLE_RATE,
} as const;

/**
 * The fixed model list: OpenAI has no endpoint that lists speech models. It follows the official
 * SDK's `SpeechModel` (openai-node src/resources/audio/speech.ts: 'tts-1' | 'tts-1-hd' |
 * 'gpt-4o-mini-tts' | 'gpt-4o-mini-tts-2025-12-15'); the dated snapshot is pinned by users who
 * want a voice that does not change when the alias moves.
 */
export const OPENAI_MODELS: readonly OpenAiModel[] = [
  { name: 'gpt-4o-mini-tts', description: 'OpenAI gpt-4o-mini-tts (steerable with instructions)', capabilities: { ...capabilities, instructions: true }, voiceSet: 'all', takesInstructions: true },
  {
    name: 'gpt-4o-mini-tts-2025-12-15',
    description: 'OpenAI gpt-4o-mini-tts, snapshot of 2025-12-15 (steerable with instructions)',
    capabilities: { ...capabilities, instructions: true },
    voiceSet: 'all',
    takesInstructions: true,
  },
  { name: 'tts-1', description: 'OpenAI tts-1 (low latency)', capabilities, voiceSet: 'classic', takesInstructions: false },
  { name: 'tts-1-hd', description: 'OpenAI tts-1-hd (higher quality)', capabilities, voiceSet: 'classic', takesInstructions: false },
];

export function findOpenAiModel(name: string): OpenAiModel | undefined {
  return OPENAI_MODELS.find((model) => model.name === name);
}
