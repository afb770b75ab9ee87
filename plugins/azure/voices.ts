import { badUpstreamResponse, type VoiceGender, type VoiceInfo } from '../../core';
import { PROVIDER } from './errors';

/** One entry of `GET /cognitiveservices/voices/list` (the fields the gateway reads). */
export interface AzureVoice {
  readonly Name?: string;
  readonly DisplayName?: string;
  readonly LocalName?: string;
  readonly ShortName: string;
  readonly Gender?: string;
  readonly Locale: string;
  readonly LocaleName?: string;
  readonly StyleList?: readonly string[];
  readonly VoiceType?: string;
  readonly Status?: string;
}

const GENDERS: Readonly<Record<string, VoiceGender>> = { male: 'Male', female: 'Female' };

/** Checks the voice list's shape; a body of another shape is the provider's fault (502). */
export function parseAzureVoices(body: unknown): AzureVoice[] {
  if (!Array.isArray(body)) throw badUpstreamResponse(PROVIDER, 'the voice list is not an array');
  return body.filter((entry): entry is AzureVoice => {
    const voice = entry as Partial<AzureVoice> | null;
    return typeof voice?.ShortName === 'string' && typeof voice.Locale === 'string';
  });
}

export function toVoiceInfo(voice: AzureVoice): VoiceInfo {
  const details = [voice.LocaleName ?? voice.Locale, voice.VoiceType ?? 'Neural'];
  if (voice.LocalName && voice.LocalName !== voice.DisplayName) details.push(`local name ${voice.LocalName}`);
  if (voice.StyleList && voice.StyleList.length > 0) details.push(`styles: ${voice.StyleList.join(', ')}`);
  if (voice.Status && voice.Status !== 'GA') details.push(voice.Status);
  return {
    voiceId: voice.ShortName,
    voiceName: voice.DisplayName ?? voice.ShortName,
    language: voice.Locale,
    gender: GENDERS[(voice.Gender ?? '').toLowerCase()] ?? 'Unknown',
    description: details.join('; '),
  };
}

/**
 * The `xml:lang` for a voice id: Azure ids are `{locale}-{Name}` (`en-US-JennyNeural`,
 * `zh-CN-liaoning-XiaobeiNeural`), so the locale is everything before the last dash.
 */
export function localeOfVoice(voiceId: string): string {
  const cut = voiceId.lastIndexOf('-');
  return cut > 0 ? voiceId.slice(0, cut) : 'en-US';
}
