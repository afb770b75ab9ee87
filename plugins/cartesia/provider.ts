import type { ModelInfo, PluginContext, ProviderAudio, ProviderAudioStream, ProviderSynthesisRequest, TtsProvider, VoiceInfo } from '../../core';
import { requestSpeech, streamSpeech } from './client';
import { unknownModel } from './errors';
import { CARTESIA_MODELS, findCartesiaModel } from './models';
import type { CartesiaOptions } from './options-schema';
import { buildTtsBody } from './request-body';
import { listCartesiaVoices } from './voices';

/** One configured Cartesia account: Sonic models, the account's voice library, `/tts/bytes`. */
export class CartesiaProvider implements TtsProvider {
  constructor(
    private readonly options: CartesiaOptions,
    private readonly context: PluginContext,
  ) {}

  async models(): Promise<readonly ModelInfo[]> {
    return CARTESIA_MODELS;
  }

  /** Voices are not tied to a model: every Sonic model speaks with the whole library. */
  async voices(model: string, signal?: AbortSignal): Promise<readonly VoiceInfo[]> {
    if (!findCartesiaModel(model)) throw unknownModel(model);
    return listCartesiaVoices(this.options, this.context.fetch, signal);
  }

  async synthesize(request: ProviderSynthesisRequest): Promise<ProviderAudio> {
    const audio = await requestSpeech(this.options, this.context.fetch, this.body(request), request.signal);
    return { audio, ...this.describe(request), warnings: [] };
  }

  async synthesizeStream(request: ProviderSynthesisRequest): Promise<ProviderAudioStream> {
    const chunks = await streamSpeech(this.options, this.context.fetch, this.body(request), request.signal);
    return { chunks, ...this.describe(request), warnings: [] };
  }

  private body(request: ProviderSynthesisRequest) {
    return buildTtsBody(request, this.options.sampleRate, this.options.language);
  }

  private describe(request: ProviderSynthesisRequest) {
    return { format: request.format, ...(request.format === 'pcm' ? { sampleRate: this.options.sampleRate } : {}) };
  }
}
