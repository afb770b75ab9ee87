import type { VoiceGender, VoiceInfo } from '../../core';
import type { GoogleFamily } from './models';
import { parseVoiceName } from './voice-name';

/** One entry of `GET /v1/voices`. */
export interface GoogleVoice {
  readonly languageCodes?: readonly string[];
  readonly name?: string;
  readonly ssmlGender?: string;
  readonly naturalSampleRateHertz?: number;
}

const GENDERS: Readonly<Record<string, VoiceGender>> = { MALE: 'Male', FEMALE: 'Female' };

/** The voices of one family, in the VoiceDto shape. */
export function voicesOfFamily(voices: readonly GoogleVoice[], family: GoogleFamily): VoiceInfo[] {
  return voices.flatMap((voice) => {
    const parsed = typeof voice.name === 'string' ? parseVoiceName(voice.name) : undefined;
    if (!voice.name || !parsed || parsed.family !== family.family) return [];
    return [toVoiceInfo(voice.name, voice, parsed.locale, family)];
  });
}

function toVoiceInfo(name: string, voice: GoogleVoice, locale: string, family: GoogleFamily): VoiceInfo {
  const languages = (voice.languageCodes ?? []).filter((code) => typeof code === 'string');
  const language = languages[0] ?? locale;
  const others = languages.slice(1);
  const rate = typeof voice.naturalSampleRateHertz === 'number' ? `, ${voice.naturalSampleRateHertz / 1000} kHz` : '';
  return {
    voiceId: name,
    voiceName: name.slice(locale.length + 1),
    language,
    gender: GENDERS[voice.ssmlGender ?? ''] ?? 'Unknown',
    description: `Google ${family.label} voice (${language}${others.length > 0 ? `; also ${others.join(', ')}` : ''}${rate})`,
  };
}
