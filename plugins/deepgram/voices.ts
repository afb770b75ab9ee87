import { badUpstreamResponse, type VoiceGender, type VoiceInfo } from '../../core';
import { BUNDLED_VOICES } from './bundled-voices';
import { PROVIDER } from './errors';
import { familyOfVoice } from './models';

/** One entry of `tts` in `GET /v1/models`. */
export interface DeepgramTtsModel {
  readonly name?: unknown;
  readonly canonical_name?: unknown;
  readonly architecture?: unknown;
  readonly languages?: unknown;
  readonly metadata?: { readonly accent?: unknown; readonly tags?: unknown; readonly use_cases?: unknown } | null;
}

export interface ModelsResponse {
  readonly tts?: readonly DeepgramTtsModel[] | null;
}

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : []);

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** Deepgram's tags say `feminine` / `masculine` (expressed gender). */
function genderFromTags(tags: readonly string[]): VoiceGender {
  const lower = tags.map((tag) => tag.toLowerCase());
  if (lower.includes('feminine') && !lower.includes('masculine')) return 'Female';
  if (lower.includes('masculine') && !lower.includes('feminine')) return 'Male';
  return 'Unknown';
}

/** The most specific language listed (`en-US` over `en`), in BCP 47 case. */
function languageOf(languages: readonly string[]): string {
  const specific = languages.find((language) => language.includes('-')) ?? languages[0];
  if (!specific) return 'und';
  const [primary, region] = specific.split('-');
  return region ? `${primary.toLowerCase()}-${region.toUpperCase()}` : primary.toLowerCase();
}

function toVoiceInfo(model: DeepgramTtsModel): VoiceInfo {
  if (typeof model.canonical_name !== 'string' || model.canonical_name.length === 0) throw badUpstreamResponse(PROVIDER, 'a TTS model without canonical_name');
  const tags = strings(model.metadata?.tags);
  const accent = typeof model.metadata?.accent === 'string' ? model.metadata.accent : undefined;
  const traits = [accent ? `${accent} accent` : undefined, tags.filter((tag) => !['feminine', 'masculine'].includes(tag.toLowerCase())).join(', ') || undefined];
  const useCases = strings(model.metadata?.use_cases);
  if (useCases.length > 0) traits.push(`for ${useCases.join(', ')}`);
  return {
    voiceId: model.canonical_name,
    voiceName: typeof model.name === 'string' && model.name.length > 0 ? capitalized(model.name) : model.canonical_name,
    language: languageOf(strings(model.languages)),
    gender: genderFromTags(tags),
    description: traits.filter((trait): trait is string => trait !== undefined).join('; ') || `Deepgram ${String(model.architecture)} voice`,
  };
}

/** The voices of one family out of `GET /v1/models`. */
export function voicesFromModels(response: ModelsResponse, family: string): VoiceInfo[] {
  if (response === null || typeof response !== 'object' || !Array.isArray(response.tts)) throw badUpstreamResponse(PROVIDER, 'no tts list in /v1/models');
  const voices = response.tts
    .filter((model) => (typeof model.architecture === 'string' ? model.architecture === family : familyOfVoice(String(model.canonical_name)) === family))
    .map(toVoiceInfo);
  const unique = [...new Map(voices.map((voice) => [voice.voiceId, voice])).values()];
  if (unique.length === 0) throw badUpstreamResponse(PROVIDER, `/v1/models lists no ${family} voice`);
  return unique;
}

/** The bundled documented voices of one family. */
export function bundledVoices(family: string): VoiceInfo[] {
  return BUNDLED_VOICES.filter(([id]) => familyOfVoice(id) === family).map(([id, gender, language, accent]) => ({
    voiceId: id,
    voiceName: capitalized(id.split('-').at(-2) ?? id),
    language,
    gender,
    description: `${accent} accent (bundled list)`,
  }));
}
