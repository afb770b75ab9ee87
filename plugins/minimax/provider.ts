import {
  awaitFirstChunk,
  isGatewayError,
  type ModelInfo,
  type PluginContext,
  type ProviderAudio,
  type ProviderAudioStream,
  type ProviderSynthesisRequest,
  type TtsProvider,
  type VoiceInfo,
} from '../../core';
import { BUNDLED_SYSTEM_VOICES } from './bundled-voices';
import { postMiniMax, streamMiniMax } from './client';
import { PROVIDER, unknownModel } from './errors';
import { decodeHexAudio } from './hex-audio';
import { isMiniMaxModel, MINIMAX_MODELS } from './models';
import type { MiniMaxOptions } from './options-schema';
import { buildT2aBody } from './request-body';
import { streamedAudio } from './streamed-audio';
import { checkReportedFormat, reportedSampleRate, type T2aAnswer } from './t2a-answer';
import { toVoiceInfo, voicesFromResponse, type GetVoiceResponse } from './voices';

const T2A_PATH = '/v1/t2a_v2';

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
    const answer = await postMiniMax<T2aAnswer>(this.options, this.context.fetch, T2A_PATH, body, request.signal);
    const audio = decodeHexAudio(answer?.data?.audio);
    checkReportedFormat(answer, request.format);
    const sampleRate = reportedSampleRate(answer, this.options.sampleRate);
    return { audio, format: request.format, ...(request.format === 'pcm' ? { sampleRate } : {}), warnings };
  }

  /**
   * `stream: true`: the audio as MiniMax generates it, event by event. MiniMax streams every format
   * but wav ("wav is only supported in non-streaming output", T2A HTTP reference), so a wav stream
   * is the whole file from one non-streaming call, handed on as one piece.
   */
  async synthesizeStream(request: ProviderSynthesisRequest): Promise<ProviderAudioStream> {
    if (request.format === 'wav') {
      const { audio, ...described } = await this.synthesize(request);
      return { chunks: onePiece(audio), ...described };
    }
    const warnings: string[] = [];
    const body = buildT2aBody(request, this.options.sampleRate, warnings, 'streamed');
    const response = await streamMiniMax(this.options, this.context.fetch, T2A_PATH, body, request.signal);
    const chunks = await awaitFirstChunk(PROVIDER, streamedAudio(response, request.format, [this.options.apiKey], request.signal));
    return { chunks, format: request.format, ...(request.format === 'pcm' ? { sampleRate: this.options.sampleRate } : {}), warnings };
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

async function* onePiece(audio: Uint8Array): AsyncGenerator<Uint8Array> {
  yield audio;
}
