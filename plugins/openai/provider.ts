import type { ModelInfo, PluginContext, ProviderAudio, ProviderAudioStream, ProviderSynthesisRequest, TtsProvider, VoiceInfo } from '../../core';
import { requestSpeech, streamSpeech } from './client';
import { findOpenAiModel, OPENAI_MODELS, OPENAI_PCM_SAMPLE_RATE } from './models';
import type { OpenAiOptions } from './options-schema';
import { buildSpeechBody } from './request-body';
import { openAiVoices } from './voices';

/** One configured OpenAI account: fixed models and voices, synthesis over HTTP. */
export class OpenAiProvider implements TtsProvider {
  constructor(
    private readonly options: OpenAiOptions,
    private readonly context: PluginContext,
  ) {}

  async models(): Promise<readonly ModelInfo[]> {
    return OPENAI_MODELS.map(({ name, description, capabilities }) => ({ name, description, capabilities }));
  }

  async voices(model: string): Promise<readonly VoiceInfo[]> {
    return openAiVoices(model);
  }

  async synthesize(request: ProviderSynthesisRequest): Promise<ProviderAudio> {
    const { body, warnings } = this.speechBody(request);
    const audio = await requestSpeech(this.options, this.context.fetch, body, request.signal, request.requestId);
    return { audio, ...this.describe(request), warnings };
  }

  async synthesizeStream(request: ProviderSynthesisRequest): Promise<ProviderAudioStream> {
    const { body, warnings } = this.speechBody(request);
    const chunks = await streamSpeech(this.options, this.context.fetch, body, request.signal, request.requestId);
    return { chunks, ...this.describe(request), warnings };
  }

  /** The request's instructions, else the configured ones; sent only to models that take them. */
  private speechBody(request: ProviderSynthesisRequest) {
    const warnings: string[] = [];
    const takesInstructions = findOpenAiModel(request.model)?.takesInstructions ?? false;
    let instructions = request.instructions ?? this.options.instructions;
    if (instructions !== undefined && !takesInstructions) {
      warnings.push(`instructions are not supported by ${request.model} and were not sent`);
      instructions = undefined;
    }
    return { body: buildSpeechBody(request, instructions), warnings };
  }

  private describe(request: ProviderSynthesisRequest) {
    return { format: request.format, ...(request.format === 'pcm' ? { sampleRate: OPENAI_PCM_SAMPLE_RATE } : {}) };
  }
}
