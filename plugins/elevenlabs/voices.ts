import { badUpstreamResponse, type VoiceGender, type VoiceInfo } from '../../core';
import type { ElevenLabsClient } from './client';
import { PROVIDER } from './errors';
import { voiceLanguage } from './voice-language';

/** One voice of `GET /v2/voices` (only the fields the gateway reads). */
interface ElevenLabsVoice {
  readonly voice_id?: unknown;
  readonly name?: unknown;
  readonly category?: unknown;
  readonly description?: unknown;
  readonly labels?: Record<string, unknown> | null;
  readonly verified_languages?: readonly { locale?: unknown }[] | null;
}

interface VoicePage {
  readonly voices?: unknown;
  readonly has_more?: unknown;
  readonly next_page_token?: unknown;
}

/** A guard against a server that keeps saying `has_more` (10,000 voices at 100 a page). */
const MAX_PAGES = 100;

const text = (value: unknown): string | undefined => (typeof value === 'string' && value.trim().length > 0 ? value.trim() : undefined);

function gender(label: unknown): VoiceGender {
  const value = text(label)?.toLowerCase();
  if (value === 'male') return 'Male';
  if (value === 'female') return 'Female';
  return 'Unknown';
}

export function toVoiceInfo(voice: ElevenLabsVoice): VoiceInfo {
  const labels = voice.labels ?? {};
  const fromLabels = [labels.description, labels.age, labels.accent, labels.use_case].map(text).filter(Boolean).join(', ');
  const category = text(voice.category);
  return {
    voiceId: voice.voice_id as string,
    voiceName: text(voice.name) ?? (voice.voice_id as string),
    language: voiceLanguage({
      verifiedLocales: (voice.verified_languages ?? []).map((entry) => entry?.locale).filter((locale): locale is string => typeof locale === 'string'),
      languageLabel: text(labels.language),
      accentLabel: text(labels.accent),
    }),
    gender: gender(labels.gender),
    description: text(voice.description) ?? (category ? [fromLabels, `(${category})`].filter(Boolean).join(' ') : fromLabels),
  };
}

/** Every voice of the account, following `next_page_token` while `has_more` says so. */
export async function fetchVoices(client: ElevenLabsClient, pageSize: number, signal?: AbortSignal): Promise<VoiceInfo[]> {
  const voices = new Map<string, VoiceInfo>();
  let pageToken: string | undefined;
  for (let page = 0; page < MAX_PAGES; page += 1) {
    const query = new URLSearchParams({ page_size: String(pageSize) });
    if (pageToken) query.set('next_page_token', pageToken);
    const answer = await client.getJson<VoicePage>(`/v2/voices?${query}`, signal);
    if (answer === null || typeof answer !== 'object' || !Array.isArray(answer.voices)) throw badUpstreamResponse(PROVIDER, 'the voice list has no voices array');
    for (const voice of answer.voices as ElevenLabsVoice[]) {
      // Page 0 also carries the default voices, so an id can come twice.
      if (typeof voice?.voice_id === 'string' && voice.voice_id.length > 0 && !voices.has(voice.voice_id)) voices.set(voice.voice_id, toVoiceInfo(voice));
    }
    pageToken = text(answer.next_page_token);
    if (answer.has_more !== true || !pageToken) return [...voices.values()];
  }
  throw badUpstreamResponse(PROVIDER, `the voice list did not end after ${MAX_PAGES} pages`);
}
