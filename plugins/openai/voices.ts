import type { VoiceGender, VoiceInfo } from '../../core';
import { unknownModel } from './errors';
import voiceData from './voices.json';
import { findOpenAiModel } from './models';

/**
 * OpenAI voices speak many languages but are tuned for English, and OpenAI names no accent:
 * `en` (valid BCP 47, no region) is the honest tag; `mul` would hide them from `en` filters.
 */
const VOICE_LANGUAGE = 'en';

interface VoiceRecord {
  readonly id: string;
  readonly name: string;
  readonly gender: string;
  readonly classic: boolean;
  readonly description: string;
}

function toGender(value: string): VoiceGender {
  return value === 'Male' || value === 'Female' ? value : 'Unknown';
}

function toVoiceInfo(record: VoiceRecord): VoiceInfo {
  return {
    voiceId: record.id,
    voiceName: record.name,
    language: VOICE_LANGUAGE,
    gender: toGender(record.gender),
    description: `${record.description}; multilingual, tuned for English`,
  };
}

/** The built-in voices one model accepts (tts-1 and tts-1-hd take only the classic set). */
export function openAiVoices(model: string): VoiceInfo[] {
  const found = findOpenAiModel(model);
  if (!found) throw unknownModel(model);
  const records: readonly VoiceRecord[] = voiceData.voices;
  return records.filter((record) => found.voiceSet === 'all' || record.classic).map(toVoiceInfo);
}
