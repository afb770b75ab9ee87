import { badUpstreamResponse, isGatewayError, type VoiceGender, type VoiceInfo } from '../../core';
import type { CompatibleClient } from './client';
import { parseKokoroVoiceId } from './kokoro-voice-names';
import type { ConfiguredVoice, OpenAiCompatibleOptions } from './options-schema';

/** OpenAI's original voice names, which OpenAI-compatible servers accept (openedai-speech maps them). */
const OPENAI_VOICE_IDS = ['alloy', 'echo', 'fable', 'onyx', 'nova', 'shimmer'];

const text = (value: unknown): string | undefined => (typeof value === 'string' && value.trim().length > 0 ? value.trim() : undefined);

function toGender(value: unknown): VoiceGender {
  const lower = text(value)?.toLowerCase();
  return lower === 'male' ? 'Male' : lower === 'female' ? 'Female' : 'Unknown';
}

/** Builds a VoiceDto from whatever the server or the configuration says, filling gaps honestly. */
export function toVoiceInfo(voice: ConfiguredVoice, defaultLanguage: string): VoiceInfo {
  const kokoro = parseKokoroVoiceId(voice.id);
  return {
    voiceId: voice.id,
    // Kokoro-FastAPI repeats the id as the name; a parsed Kokoro name reads better then.
    voiceName: (voice.name !== voice.id ? text(voice.name) : undefined) ?? kokoro?.name ?? voice.id,
    language: text(voice.language) ?? kokoro?.language ?? defaultLanguage,
    gender: voice.gender && voice.gender !== 'Unknown' ? voice.gender : (kokoro?.gender ?? 'Unknown'),
    description: text(voice.description) ?? kokoro?.description ?? '',
  };
}

/** Kokoro-FastAPI answers `{voices: ["af_bella", ...]}` (older) or `{voices: [{id, name}]}`; others `{data: [{id}]}`. */
function readVoiceList(body: unknown, provider: string): ConfiguredVoice[] {
  const record = body !== null && typeof body === 'object' ? (body as Record<string, unknown>) : {};
  const entries = Array.isArray(body) ? body : Array.isArray(record.voices) ? record.voices : Array.isArray(record.data) ? record.data : undefined;
  if (!entries) throw badUpstreamResponse(provider, 'the voice list has no voices array');
  return entries.flatMap((entry: unknown): ConfiguredVoice[] => {
    if (typeof entry === 'string') return text(entry) ? [{ id: entry.trim() }] : [];
    if (entry === null || typeof entry !== 'object') return [];
    const fields = entry as Record<string, unknown>;
    const id = text(fields.id) ?? text(fields.voice_id) ?? text(fields.name);
    if (!id) return [];
    return [{ id, name: text(fields.name), language: text(fields.language) ?? text(fields.locale), gender: toGender(fields.gender), description: text(fields.description) }];
  });
}

function unique(voices: readonly ConfiguredVoice[]): ConfiguredVoice[] {
  return [...new Map(voices.map((voice) => [voice.id, voice])).values()];
}

/**
 * The configured voices, else `GET /v1/audio/voices`, else — when the server has no such
 * endpoint (404) — OpenAI's six original voice names.
 */
export async function listVoices(client: CompatibleClient, options: OpenAiCompatibleOptions, signal?: AbortSignal): Promise<VoiceInfo[]> {
  let voices: ConfiguredVoice[];
  if (options.voices) {
    voices = options.voices.map((voice) => (typeof voice === 'string' ? { id: voice } : voice));
  } else {
    try {
      voices = readVoiceList(await client.getJson<unknown>('/v1/audio/voices', signal), client.provider);
    } catch (error) {
      if (!isGatewayError(error) || error.details[0]?.upstreamStatus !== 404) throw error;
      voices = OPENAI_VOICE_IDS.map((id) => ({ id, name: id.charAt(0).toUpperCase() + id.slice(1), description: 'OpenAI voice name; the server picks the voice it maps to' }));
    }
  }
  return unique(voices).map((voice) => toVoiceInfo(voice, options.voiceLanguage));
}
