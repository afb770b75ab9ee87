import { badUpstreamResponse, type ModelInfo, type PluginContext, type ProviderAudio, type ProviderSynthesisRequest, type TtsProvider, type VoiceInfo } from '../../core';
import { ElevenLabsClient } from './client';
import { listModels } from './models';
import type { ElevenLabsOptions } from './options-schema';
import { toElevenLabsCall } from './request-body';
import { fetchVoices } from './voices';

/** One configured ElevenLabs account. Every model speaks with every voice of the account. */
export class ElevenLabsProvider implements TtsProvider {
  private readonly client: ElevenLabsClient;
  /** Shared by concurrent callers (the catalog asks once per model at the same moment). */
  private voicesInFlight?: Promise<VoiceInfo[]>;

  constructor(
    private readonly options: ElevenLabsOptions,
    private readonly context: PluginContext,
  ) {
    this.client = new ElevenLabsClient(options, context.fetch);
  }

  models(signal?: AbortSignal): Promise<readonly ModelInfo[]> {
    return listModels(this.client, this.options.models, this.context.logger, signal);
  }

  voices(_model: string, signal?: AbortSignal): Promise<readonly VoiceInfo[]> {
    if (!this.voicesInFlight) {
      this.voicesInFlight = fetchVoices(this.client, this.options.voicePageSize, signal).finally(() => {
        this.voicesInFlight = undefined;
      });
    }
    return this.voicesInFlight;
  }

  async synthesize(request: ProviderSynthesisRequest): Promise<ProviderAudio> {
    const call = toElevenLabsCall(request, this.options);
    const audio = await this.client.textToSpeech(request.voice, call.outputFormat, call.body, request.signal);
    if (call.sampleRate !== undefined) {
      if (audio.byteLength % 2 !== 0) throw badUpstreamResponse('ElevenLabs', '16-bit pcm with an odd byte count');
      return { audio, format: 'pcm', sampleRate: call.sampleRate, warnings: [] };
    }
    return { audio, format: request.format, warnings: [] };
  }
}
