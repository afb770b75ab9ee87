import { type VoiceGender, type VoiceInfo } from '../../core';

/** One entry of the read-aloud voice list (the fields the gateway reads). */
export interface EdgeVoice {
  readonly Name?: string;
  readonly ShortName: string;
  readonly Gender?: string;
  readonly Locale: string;
  readonly FriendlyName?: string;
  readonly Status?: string;
  readonly VoiceTag?: { readonly ContentCategories?: readonly string[]; readonly VoicePersonalities?: readonly string[] };
}

const GENDERS: Readonly<Record<string, VoiceGender>> = { male: 'Male', female: 'Female' };

/** Voice ids are `{locale}-{Name}`; the locale is everything before the last dash. */
export function localeOfVoice(voiceId: string): string {
  const cut = voiceId.lastIndexOf('-');
  return cut > 0 ? voiceId.slice(0, cut) : 'en-US';
}

/**
 * The long voice name the Edge browser puts in its SSML:
 * `en-US-AriaNeural` -> `Microsoft Server Speech Text to Speech Voice (en-US, AriaNeural)`.
 */
export function serviceVoiceName(voiceId: string): string {
  if (voiceId.startsWith('Microsoft Server Speech')) return voiceId;
  const cut = voiceId.lastIndexOf('-');
  if (cut <= 0) return voiceId;
  return `Microsoft Server Speech Text to Speech Voice (${voiceId.slice(0, cut)}, ${voiceId.slice(cut + 1)})`;
}

/** `en-US-EmmaMultilingualNeural` -> `Emma Multilingual`. */
function displayName(voiceId: string): string {
  const name = voiceId.slice(voiceId.lastIndexOf('-') + 1).replace(/Neural$/, '');
  return name.replace(/([a-z])([A-Z])/g, '$1 $2') || voiceId;
}

export function toVoiceInfo(voice: EdgeVoice): VoiceInfo {
  const details = [voice.FriendlyName ?? voice.Name ?? voice.ShortName];
  const tags = [...(voice.VoiceTag?.ContentCategories ?? []), ...(voice.VoiceTag?.VoicePersonalities ?? [])];
  if (tags.length > 0) details.push(tags.join(', '));
  if (voice.Status && voice.Status !== 'GA') details.push(voice.Status);
  return {
    voiceId: voice.ShortName,
    voiceName: displayName(voice.ShortName),
    language: voice.Locale,
    gender: GENDERS[(voice.Gender ?? '').toLowerCase()] ?? 'Unknown',
    description: details.join('; '),
  };
}
