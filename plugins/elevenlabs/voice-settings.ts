import { LRUCache } from 'lru-cache';
import type { Logger } from '../../core';
import type { ElevenLabsClient } from './client';

/**
 * The settings a request's `voice_settings` carries. ElevenLabs documents the object as "Voice
 * settings overriding stored settings for the given voice" and, since 2025-03-24, every field as
 * optional, but not that a field left out keeps the voice's stored value (until then stability
 * and similarity_boost were required: the object replaced the stored settings whole). So a
 * request that changes the speed sends the voice's stored settings with it.
 */
export interface VoiceSettings {
  readonly stability?: number;
  readonly similarity_boost?: number;
  readonly style?: number;
  readonly use_speaker_boost?: boolean;
  readonly speed?: number;
}

/** How long a voice's stored settings are reused: edits made in ElevenLabs' app show up within this. */
const STORED_TTL_MS = 10 * 60 * 1000;
/** How long speed goes alone after the settings could not be read, before asking again. */
const UNREADABLE_TTL_MS = 60 * 1000;
/** Voice ids come from requests: the cache keeps at most this many, dropping the oldest first. */
const MAX_VOICES = 1000;

const NUMBER_FIELDS = ['stability', 'similarity_boost', 'style'] as const;

/** The stored fields a request carries along with its own speed (the stored speed is replaced). */
function storedFields(answer: unknown): VoiceSettings {
  if (answer === null || typeof answer !== 'object') throw new Error('the voice settings are not an object');
  const fields = answer as Record<string, unknown>;
  const settings: Record<string, number | boolean> = {};
  for (const name of NUMBER_FIELDS) if (typeof fields[name] === 'number') settings[name] = fields[name];
  if (typeof fields.use_speaker_boost === 'boolean') settings.use_speaker_boost = fields.use_speaker_boost;
  return settings;
}

/**
 * Each voice's stored settings (`GET /v1/voices/{voice_id}/settings`), read once per voice and
 * kept for STORED_TTL_MS, so a speed costs one extra call per voice, not per request.
 */
export class StoredVoiceSettings {
  private readonly known: LRUCache<string, VoiceSettings>;

  constructor(
    private readonly client: Pick<ElevenLabsClient, 'getJson'>,
    private readonly logger: Logger,
    maxVoices = MAX_VOICES,
  ) {
    this.known = new LRUCache({ max: maxVoices, ttl: STORED_TTL_MS });
  }

  /** The voice's stored settings with `speed` in place of the stored one. */
  async withSpeed(voiceId: string, speed: number, signal: AbortSignal): Promise<VoiceSettings> {
    return { ...(await this.stored(voiceId, signal)), speed };
  }

  private async stored(voiceId: string, signal: AbortSignal): Promise<VoiceSettings> {
    const cached = this.known.get(voiceId);
    if (cached) return cached;
    try {
      const settings = storedFields(await this.client.getJson(`/v1/voices/${encodeURIComponent(voiceId)}/settings`, signal));
      this.known.set(voiceId, settings);
      return settings;
    } catch (error) {
      if (signal.aborted) throw error;
      // A key without the voices permission, or an outage: the speed still goes, alone, rather than failing the speech.
      this.logger.warn('ElevenLabs voice settings unreadable; sending the speed without them', {
        voice: voiceId,
        reason: error instanceof Error ? error.message : String(error),
      });
      this.known.set(voiceId, {}, { ttl: UNREADABLE_TTL_MS });
      return {};
    }
  }
}
