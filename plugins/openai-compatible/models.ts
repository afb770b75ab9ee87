import { badUpstreamResponse, isGatewayError, type ModelCapabilities, type ModelInfo } from '../../core';
import type { CompatibleClient } from './client';
import { badModelPattern } from './errors';
import type { OpenAiCompatibleOptions } from './options-schema';

/** Ids every OpenAI-compatible speech server accepts, served when it has no `GET /v1/models`. */
const OPENAI_SPEECH_IDS = ['tts-1', 'tts-1-hd'];

/** One served model: the gateway's URL-safe name and the id the server knows. */
export interface UpstreamModel {
  readonly name: string;
  readonly upstreamId: string;
}

/** `kokoro` + `tts-1` -> `kokoro-tts-1`; characters unsafe in a URL path become `-`. */
export function gatewayModelName(upstreamId: string, prefix?: string): string {
  const joined = prefix ? `${prefix}-${upstreamId}` : upstreamId;
  return joined.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[^A-Za-z0-9]+/, '');
}

export function capabilitiesOf(options: OpenAiCompatibleOptions): ModelCapabilities {
  return {
    formats: options.formats,
    ...(options.nativeSpeed ? { speed: options.speedRange } : {}),
    maxInputChars: options.maxInputChars,
    pcmSampleRate: options.pcmSampleRate,
  };
}

export function toModelInfo(model: UpstreamModel, options: OpenAiCompatibleOptions): ModelInfo {
  return { name: model.name, description: `${model.upstreamId} on ${options.baseUrl}`, capabilities: capabilitiesOf(options) };
}

export function serve(upstreamIds: readonly string[], prefix?: string): UpstreamModel[] {
  const served = new Map<string, UpstreamModel>();
  for (const upstreamId of upstreamIds) {
    const name = gatewayModelName(upstreamId, prefix);
    if (name.length > 0 && !served.has(name)) served.set(name, { name, upstreamId });
  }
  return [...served.values()];
}

/** The compiled `modelPattern`; a broken pattern is a configuration error, raised at start. */
export function modelPatternOf(options: OpenAiCompatibleOptions): RegExp {
  try {
    return new RegExp(options.modelPattern, 'i');
  } catch {
    throw badModelPattern(options.modelPattern);
  }
}

/**
 * The configured model ids, else the speech models of `GET /v1/models` (ids matching
 * `modelPattern`), else — when the server has no such endpoint (404) — `tts-1` and `tts-1-hd`.
 */
export async function listServedModels(client: CompatibleClient, options: OpenAiCompatibleOptions, signal?: AbortSignal): Promise<UpstreamModel[]> {
  if (options.models) return serve(options.models, options.modelPrefix);
  let listing: { data?: unknown };
  try {
    listing = await client.getJson<{ data?: unknown }>('/v1/models', signal);
  } catch (error) {
    if (isGatewayError(error) && error.details[0]?.upstreamStatus === 404) return serve(OPENAI_SPEECH_IDS, options.modelPrefix);
    throw error;
  }
  if (listing === null || typeof listing !== 'object' || !Array.isArray(listing.data)) throw badUpstreamResponse(client.provider, 'the model list has no data array');
  const pattern = modelPatternOf(options);
  const ids = (listing.data as { id?: unknown }[])
    .map((entry) => entry?.id)
    .filter((id): id is string => typeof id === 'string' && pattern.test(id));
  return serve(ids, options.modelPrefix);
}
