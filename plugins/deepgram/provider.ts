import {
  isGatewayError,
  type ModelInfo,
  type PluginContext,
  type ProviderAudio,
  type ProviderAudioStream,
  type ProviderSynthesisRequest,
  type TtsProvider,
  type VoiceInfo,
} from '../../core';
import { requestModels, requestSpeech, streamSpeech, type SpeakCall } from './client';
import { unknownModel, voiceOfOtherFamily } from './errors';
import { DEEPGRAM_MODELS, familyOfVoice, isDeepgramModel } from './models';
import type { DeepgramOptions } from './options-schema';
import { SPEAK_FORMATS } from './request-body';
import { bundledVoices, voicesFromModels, type ModelsResponse } from './voices';

/** One configured Deepgram project: Aura families as models, their voices, REST synthesis. */
export class DeepgramProvider implements TtsProvider {
  constructor(
    private readonly options: DeepgramOptions,
    private readonly context: PluginContext,
  ) {}

  async models(): Promise<readonly ModelInfo[]> {
    return DEEPGRAM_MODELS;
  }

  /** The family's voices from `GET /v1/models`; the bundled list when that fails (logged). */
  async voices(model: string, signal?: AbortSignal): Promise<readonly VoiceInfo[]> {
    if (!isDeepgramModel(model)) throw unknownModel(model);
    try {
      return voicesFromModels(await requestModels<ModelsResponse>(this.options, this.context.fetch, signal), model);
    } catch (error) {
      if (isGatewayError(error) && error.code === 'TTS_ERR_CANCELLED') throw error;
      this.context.logger.warn('Deepgram model list unavailable; serving the bundled Aura voices', {
        instanceId: this.context.instanceId,
        error: isGatewayError(error) ? error.code : 'unexpected',
        reason: error instanceof Error ? error.message : String(error),
      });
      return bundledVoices(model);
    }
  }

  async synthesize(request: ProviderSynthesisRequest): Promise<ProviderAudio> {
    const audio = await requestSpeech(this.options, this.context.fetch, speakCall(request), request.signal);
    return { audio, ...describe(request), warnings: [] };
  }

  async synthesizeStream(request: ProviderSynthesisRequest): Promise<ProviderAudioStream> {
    const chunks = await streamSpeech(this.options, this.context.fetch, speakCall(request), request.signal);
    return { chunks, ...describe(request), warnings: [] };
  }
}

/** The voice is Deepgram's model id; speed, pitch and volume are never native (the gateway does them). */
function speakCall(request: ProviderSynthesisRequest): SpeakCall {
  if (familyOfVoice(request.voice) !== request.model) throw voiceOfOtherFamily(request.voice, request.model);
  return { voice: request.voice, format: request.format, text: request.text };
}

function describe(request: ProviderSynthesisRequest) {
  return { format: request.format, ...(request.format === 'pcm' ? { sampleRate: SPEAK_FORMATS.pcm.sampleRate } : {}) };
}
