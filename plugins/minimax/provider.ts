import {
  badUpstreamResponse,
  isGatewayError,
  type ModelInfo,
  type PluginContext,
  type ProviderAudio,
  type ProviderSynthesisRequest,
  type TtsProvider,
  type VoiceInfo,
} from '../../core';
import { BUNDLED_SYSTEM_VOICES } from './bundled-voices';
import { postMiniMax } from './client';
import { PROVIDER, unknownModel, type BaseResponse } from './errors';
import { decodeHexAudio } from './hex-audio';
import { isMiniMaxModel, MINIMAX_MODELS } from './models';
import type { MiniMaxOptions } from './options-schema';
import { buildT2aBody } from './request-body';
import { toVoiceInfo, voicesFromResponse, type GetVoiceResponse } from './voices';

interface T2aResponse {
  readonly data?: { readonly audio?: unknown; readonly status?: number } | null;
  readonly extra_info?: { readonly audio_sample_rate?: unknown; readonly audio_format?: unknown } | null;
  readonly trace_id?: string;
  readonly base_resp?: BaseResponse;
}

/** One configured MiniMax account: fixed models, the account's voice list, synthesis over HTTP. */
export class MiniMaxProvider implements TtsProvider {
  constructor(
    private readonly options: MiniMaxOptions,
    private readonly context: PluginContext,
  ) {}

  async models(): Promise<readonly ModelInfo[]> {
    return MINIMAX_MODELS;
  }

  /** Every model speaks with the same voices (the catalog caches the list). */
  async voices(model: string, signal?: AbortSignal): Promise<readonly VoiceInfo[]> {
    if (!isMiniMaxModel(model)) throw unknownModel(model);
    return this.fetchVoices(signal);
  }

  async synthesize(request: ProviderSynthesisRequest): Promise<ProviderAudio> {
    const warnings: string[] = [];
    const body = buildT2aBody(request, this.options.sampleRate, warnings);
    const response = await postMiniMax<T2aResponse>(this.options, this.context.fetch, '/v1/t2a_v2', body, request.signal);
    const audio = decodeHexAudio(response?.data?.audio);
    const reportedFormat = response.extra_info?.audio_format;
    if (typeof reportedFormat === 'string' && reportedFormat !== request.format) {
      throw badUpstreamResponse(PROVIDER, `asked for ${request.format}, got ${reportedFormat}`);
    }
    const reportedRate = response.extra_info?.audio_sample_rate;
    const sampleRate = typeof reportedRate === 'number' && reportedRate > 0 ? reportedRate : this.options.sampleRate;
    return { audio, format: request.format, ...(request.format === 'pcm' ? { sampleRate } : {}), warnings };
  }

  /** The account's list; on failure (not cancellation) the documented system voices, logged. */
  private async fetchVoices(signal?: AbortSignal): Promise<readonly VoiceInfo[]> {
    try {
      const response = await postMiniMax<GetVoiceResponse>(this.options, this.context.fetch, '/v1/get_voice', { voice_type: 'all' }, signal);
      return voicesFromResponse(response);
    } catch (error) {
      if (isGatewayError(error) && error.code === 'TTS_ERR_CANCELLED') throw error;
      this.context.logger.warn('MiniMax voice list unavailable; serving the bundled system voices', {
        instanceId: this.context.instanceId,
        error: isGatewayError(error) ? error.code : 'unexpected',
        reason: error instanceof Error ? error.message : String(error),
      });
      return BUNDLED_SYSTEM_VOICES.map((record) => toVoiceInfo(record));
    }
  }
}
