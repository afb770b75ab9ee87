import { badUpstreamResponse, type VoiceInfo } from '../../core';
import { PROVIDER } from './errors';
import type { BaseResponse } from './errors';
import { genderOf, languageOf } from './voice-traits';

/** One voice in `POST /v1/get_voice`'s answer (system, cloned or designed). */
export interface MiniMaxVoiceRecord {
  readonly voice_id?: unknown;
  readonly voice_name?: unknown;
  readonly description?: unknown;
}

/** `POST /v1/get_voice` with `voice_type: 'all'`. */
export interface GetVoiceResponse {
  readonly system_voice?: readonly MiniMaxVoiceRecord[] | null;
  readonly voice_cloning?: readonly MiniMaxVoiceRecord[] | null;
  readonly voice_generation?: readonly MiniMaxVoiceRecord[] | null;
  readonly base_resp?: BaseResponse;
}

const KIND_LABELS = {
  system_voice: 'MiniMax system voice',
  voice_cloning: 'Cloned voice (this account)',
  voice_generation: 'Designed voice (this account)',
} as const;

function describe(record: MiniMaxVoiceRecord, label: string): string {
  const parts = Array.isArray(record.description) ? record.description.filter((part): part is string => typeof part === 'string') : [];
  const text = typeof record.description === 'string' ? record.description : parts.join(' ');
  return text.trim().length > 0 ? `${label}: ${text.trim()}` : label;
}

/** Maps one MiniMax voice to VoiceDto; language and gender only where MiniMax states them. */
export function toVoiceInfo(record: MiniMaxVoiceRecord, label: string = KIND_LABELS.system_voice): VoiceInfo {
  if (typeof record.voice_id !== 'string' || record.voice_id.length === 0) throw badUpstreamResponse(PROVIDER, 'a voice without voice_id');
  const voiceName = typeof record.voice_name === 'string' && record.voice_name.length > 0 ? record.voice_name : record.voice_id;
  return {
    voiceId: record.voice_id,
    voiceName,
    language: languageOf(record.voice_id, voiceName),
    gender: genderOf(record.voice_id, voiceName),
    description: describe(record, label),
  };
}

/** Every voice of a get_voice answer, system voices first, without duplicates. */
export function voicesFromResponse(response: GetVoiceResponse): VoiceInfo[] {
  if (response === null || typeof response !== 'object') throw badUpstreamResponse(PROVIDER, 'the voice list is not an object');
  const voices = new Map<string, VoiceInfo>();
  for (const kind of Object.keys(KIND_LABELS) as (keyof typeof KIND_LABELS)[]) {
    const records = response[kind];
    if (records === undefined || records === null) continue;
    if (!Array.isArray(records)) throw badUpstreamResponse(PROVIDER, `${kind} is not a list`);
    for (const record of records) {
      const voice = toVoiceInfo(record, KIND_LABELS[kind]);
      if (!voices.has(voice.voiceId)) voices.set(voice.voiceId, voice);
    }
  }
  if (voices.size === 0) throw badUpstreamResponse(PROVIDER, 'the voice list is empty');
  return [...voices.values()];
}
