import type { VoiceGender, VoiceInfo } from '../../core';
import type { PollyEngine } from './models';

/** One entry of DescribeVoices' `Voices`. */
export interface PollyVoice {
  readonly Id?: string;
  readonly Name?: string;
  readonly Gender?: string;
  readonly LanguageCode?: string;
  readonly LanguageName?: string;
  readonly AdditionalLanguageCodes?: readonly string[];
  readonly SupportedEngines?: readonly string[];
}

/** Polly codes that are not BCP 47 tags, and the tag that names the same language. */
const LANGUAGE_TAGS: Readonly<Record<string, string>> = { 'en-GB-WLS': 'en-GB' };
const GENDERS: Readonly<Record<string, VoiceGender>> = { Male: 'Male', Female: 'Female' };

/** The voices that speak with one engine, in the VoiceDto shape (first listing wins on repeats). */
export function voicesOfEngine(voices: readonly PollyVoice[], engine: PollyEngine): VoiceInfo[] {
  const seen = new Set<string>();
  return voices.flatMap((voice) => {
    if (!voice.Id || seen.has(voice.Id) || !voice.SupportedEngines?.includes(engine.engine)) return [];
    seen.add(voice.Id);
    return [toVoiceInfo(voice.Id, voice, engine)];
  });
}

function toVoiceInfo(id: string, voice: PollyVoice, engine: PollyEngine): VoiceInfo {
  const code = voice.LanguageCode ?? 'und';
  const also = voice.AdditionalLanguageCodes?.length ? `; also speaks ${voice.AdditionalLanguageCodes.join(', ')}` : '';
  return {
    voiceId: id,
    voiceName: voice.Name ?? id,
    language: LANGUAGE_TAGS[code] ?? code,
    gender: GENDERS[voice.Gender ?? ''] ?? 'Unknown',
    description: `Amazon Polly ${engine.label} voice, ${voice.LanguageName ?? code}${also}`,
  };
}
