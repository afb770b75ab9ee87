import { badUpstreamResponse, isGatewayError, type AudioFormat, type ModelInfo, type NumberRange, type Logger } from '../../core';
import type { ElevenLabsClient } from './client';
import { PROVIDER } from './errors';

/** ElevenLabs' documented `voice_settings.speed` range; outside it the gateway's DSP works. */
export const ELEVENLABS_SPEED: NumberRange = { min: 0.7, max: 1.2 };

/**
 * Natively returned formats. Not declared: wav (the gateway wraps pcm itself, byte for byte
 * the same), opus (ElevenLabs does not document the container of `opus_48000_*`), aac and flac
 * (not offered): the gateway transcodes from pcm.
 */
export const ELEVENLABS_FORMATS: readonly AudioFormat[] = ['mp3', 'pcm'];

/** One entry of `GET /v1/models` (only the fields the gateway reads). */
interface ElevenLabsModel {
  readonly model_id?: unknown;
  readonly name?: unknown;
  readonly can_do_text_to_speech?: unknown;
  readonly maximum_text_length_per_request?: unknown;
  readonly max_characters_request_subscribed_user?: unknown;
}

/**
 * Per-request character limits from ElevenLabs' help centre, for models whose listing carries
 * no limit, and the bundled list served when `GET /v1/models` is unreachable.
 */
const KNOWN_LIMITS: Readonly<Record<string, number>> = {
  eleven_v3: 5000,
  eleven_multilingual_v2: 10000,
  eleven_flash_v2_5: 40000,
  eleven_turbo_v2_5: 40000,
  eleven_flash_v2: 30000,
  eleven_turbo_v2: 30000,
};
/** When neither the listing nor the table knows a model, stay at the smallest known limit. */
const CAUTIOUS_LIMIT = 5000;

/**
 * The longest chunk the plugin sends in one call, whatever the model allows: about two minutes
 * of speech (English is spoken at about 15 characters a second). Flash v2.5 takes 40,000
 * characters, some 40 minutes of audio, which no 30 s `timeoutMs` (nor the gateway's 60 s
 * synthesis deadline) would let finish; shorter chunks finish in time and the gateway
 * synthesizes them in parallel (`synthesis.chunkConcurrency`).
 */
export const MAX_CHUNK_CHARS = 2000;
const FALLBACK_MODELS = ['eleven_multilingual_v2', 'eleven_v3', 'eleven_flash_v2_5', 'eleven_turbo_v2_5'];

const positiveInteger = (value: unknown): number | undefined => (Number.isInteger(value) && (value as number) > 0 ? (value as number) : undefined);

export function toModelInfo(modelId: string, listed: ElevenLabsModel = {}): ModelInfo {
  const modelLimit =
    positiveInteger(listed.maximum_text_length_per_request) ??
    positiveInteger(listed.max_characters_request_subscribed_user) ??
    KNOWN_LIMITS[modelId] ??
    CAUTIOUS_LIMIT;
  const maxInputChars = Math.min(modelLimit, MAX_CHUNK_CHARS);
  return {
    name: modelId,
    description: typeof listed.name === 'string' ? `ElevenLabs ${listed.name}` : `ElevenLabs ${modelId}`,
    capabilities: { formats: ELEVENLABS_FORMATS, speed: ELEVENLABS_SPEED, maxInputChars },
  };
}

/** Text-to-speech models from `GET /v1/models`; model ids that are not URL-path safe are skipped. */
export async function fetchModels(client: ElevenLabsClient, signal?: AbortSignal): Promise<ModelInfo[]> {
  const listed = await client.getJson<unknown>('/v1/models', signal);
  if (!Array.isArray(listed)) throw badUpstreamResponse(PROVIDER, 'the model list is not an array');
  return (listed as ElevenLabsModel[])
    .filter((model) => model?.can_do_text_to_speech === true && typeof model.model_id === 'string')
    .filter((model) => /^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(model.model_id as string))
    .map((model) => toModelInfo(model.model_id as string, model));
}

function isTransient(error: unknown): error is Error {
  if (!isGatewayError(error)) return false;
  if (error.code === 'TTS_ERR_UNAVAILABLE' || error.code === 'TTS_ERR_TIMEOUT') return true;
  const upstreamStatus = error.details[0]?.upstreamStatus;
  return error.code === 'TTS_ERR_UPSTREAM' && typeof upstreamStatus === 'number' && upstreamStatus >= 500;
}

/**
 * The models to serve: the configured ids, else the listing. When ElevenLabs is merely
 * unreachable (timeout, connection, 5xx) the bundled list keeps the catalog usable; a
 * credentials or shape problem is raised so that it is seen.
 */
export async function listModels(client: ElevenLabsClient, configured: readonly string[] | undefined, logger: Logger, signal?: AbortSignal): Promise<ModelInfo[]> {
  if (configured) return configured.map((modelId) => toModelInfo(modelId));
  try {
    return await fetchModels(client, signal);
  } catch (error) {
    if (!isTransient(error) || signal?.aborted) throw error;
    logger.warn('ElevenLabs model list unavailable; serving the bundled model list', { reason: error.message });
    return FALLBACK_MODELS.map((modelId) => toModelInfo(modelId));
  }
}
