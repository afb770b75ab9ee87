import type { ModelInfo, PluginContext, ProviderAudio, ProviderAudioStream, ProviderSynthesisRequest, TtsProvider, VoiceInfo } from '../../core';
import { CompatibleClient, providerName } from './client';
import { listServedModels, modelPatternOf, serve, toModelInfo, type UpstreamModel } from './models';
import type { OpenAiCompatibleOptions } from './options-schema';
import { buildSpeechBody } from './request-body';
import { listVoices } from './voices';

/** One self-hosted OpenAI-shaped speech server (Kokoro-FastAPI, LocalAI, openedai-speech, ...). */
export class OpenAiCompatibleProvider implements TtsProvider {
  private readonly client: CompatibleClient;
  /** Gateway model name -> the server's model id, filled by every model listing. */
  private readonly upstreamIds = new Map<string, string>();

  constructor(
    private readonly options: OpenAiCompatibleOptions,
    context: PluginContext,
  ) {
    this.client = new CompatibleClient(options, context.fetch, providerName(context.instanceId));
    modelPatternOf(options);
    if (options.models) this.remember(serve(options.models, options.modelPrefix));
  }

  async models(signal?: AbortSignal): Promise<readonly ModelInfo[]> {
    const served = await listServedModels(this.client, this.options, signal);
    this.remember(served);
    return served.map((model) => toModelInfo(model, this.options));
  }

  voices(_model: string, signal?: AbortSignal): Promise<readonly VoiceInfo[]> {
    return listVoices(this.client, this.options, signal);
  }

  async synthesize(request: ProviderSynthesisRequest): Promise<ProviderAudio> {
    const body = buildSpeechBody(request, this.upstreamId(request.model));
    const audio = await this.client.speech(body, request.signal);
    return { audio, ...this.describe(request), warnings: [] };
  }

  async synthesizeStream(request: ProviderSynthesisRequest): Promise<ProviderAudioStream> {
    const body = buildSpeechBody(request, this.upstreamId(request.model));
    const chunks = await this.client.speechStream(body, request.signal);
    return { chunks, ...this.describe(request), warnings: [] };
  }

  private describe(request: ProviderSynthesisRequest) {
    return { format: request.format, ...(request.format === 'pcm' ? { sampleRate: this.options.pcmSampleRate } : {}) };
  }

  private remember(served: readonly UpstreamModel[]): void {
    for (const model of served) this.upstreamIds.set(model.name, model.upstreamId);
  }

  /** The server's id for a gateway model name; before any listing, the name without its prefix. */
  private upstreamId(name: string): string {
    const known = this.upstreamIds.get(name);
    if (known) return known;
    const prefix = this.options.modelPrefix ? `${this.options.modelPrefix}-` : '';
    return prefix && name.startsWith(prefix) ? name.slice(prefix.length) : name;
  }
}
