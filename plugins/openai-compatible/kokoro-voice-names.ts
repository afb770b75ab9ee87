import type { VoiceGender } from '../../core';

/**
 * Kokoro names its voices `<language letter><f|m>_<name>` (`af_bella`: American English,
 * female). The letters, from Kokoro's voice list, as BCP 47 tags.
 */
const KOKORO_LANGUAGES: Readonly<Record<string, { tag: string; label: string }>> = {
  a: { tag: 'en-US', label: 'American English' },
  b: { tag: 'en-GB', label: 'British English' },
  e: { tag: 'es', label: 'Spanish' },
  f: { tag: 'fr-FR', label: 'French' },
  h: { tag: 'hi-IN', label: 'Hindi' },
  i: { tag: 'it-IT', label: 'Italian' },
  j: { tag: 'ja-JP', label: 'Japanese' },
  p: { tag: 'pt-BR', label: 'Brazilian Portuguese' },
  z: { tag: 'zh-CN', label: 'Mandarin Chinese' },
};

const KOKORO_NAME = /^([a-z])([fm])_([a-z0-9]+)$/;

export interface KokoroVoice {
  readonly name: string;
  readonly language: string;
  readonly gender: VoiceGender;
  readonly description: string;
}

/** Reads language and gender out of a Kokoro voice id; `undefined` for other names. */
export function parseKokoroVoiceId(voiceId: string): KokoroVoice | undefined {
  const match = KOKORO_NAME.exec(voiceId);
  const language = match ? KOKORO_LANGUAGES[match[1]] : undefined;
  if (!match || !language) return undefined;
  const gender: VoiceGender = match[2] === 'f' ? 'Female' : 'Male';
  return {
    name: match[3].charAt(0).toUpperCase() + match[3].slice(1),
    language: language.tag,
    gender,
    description: `Kokoro voice, ${language.label}, ${gender.toLowerCase()}`,
  };
}
