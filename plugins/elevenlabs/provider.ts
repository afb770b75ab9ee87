import {
  badUpstreamResponse,
  type ModelInfo,
  type PluginContext,
  type ProviderAudio,
  type ProviderAudioStream,
  type ProviderSynthesisRequest,
  type TtsProvider,
  type VoiceInfo,
} from '../../core';
import { ElevenLabsClient } from './client';
import { PROVIDER } from './errors';
import { listModels } from './models';
import type { ElevenLabsOptions } from './options-schema';
import { toElevenLabsCall, type ElevenLabsCall } from './request-body';
import { StoredVoiceSettings } from './voice-settings';
import { fetchVoices } from './voices';

/** One configured ElevenLabs account. Every model speaks with every voice of the account. */
export class ElevenLabsProvider implements TtsProvider {
  private readonly client: ElevenLabsClient;
  private readonly storedSettings: StoredVoiceSettings;
  /** Shared by concurrent callers (the catalog asks once per model at the same moment). */
  private voicesInFlight?: Promise<VoiceInfo[]>;

  constructor(
    private readonly options: ElevenLabsOptions,
    private readonly context: PluginContext,
  ) {
    this.client = new ElevenLabsClient(options, context.fetch);
    this.storedSettings = new StoredVoiceSettings(this.client, context.logger);
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
    const call = await this.callFor(request);
    const audio = await this.client.textToSpeech(request.voice, call.outputFormat, call.body, request.signal);
    if (call.sampleRate !== undefined && audio.byteLength % 2 !== 0) throw oddPcm();
    return { audio, ...describe(request, call), warnings: [] };
  }

  async synthesizeStream(request: ProviderSynthesisRequest): Promise<ProviderAudioStream> {
    const call = await this.callFor(request);
    const chunks = await this.client.streamTextToSpeech(request.voice, call.outputFormat, call.body, request.signal);
    return { chunks: call.sampleRate !== undefined ? wholeSamples(chunks) : chunks, ...describe(request, call), warnings: [] };
  }

  /** The call for a request; a speed goes with the voice's stored settings (see voice-settings.ts). */
  private async callFor(request: ProviderSynthesisRequest): Promise<ElevenLabsCall> {
    const call = toElevenLabsCall(request, this.options); // refuses an unsupported format before any network call
    if (request.speed === undefined) return call;
    return toElevenLabsCall(request, this.options, await this.storedSettings.withSpeed(request.voice, request.speed, request.signal));
  }
}

function describe(request: ProviderSynthesisRequest, call: ElevenLabsCall) {
  return call.sampleRate !== undefined ? { format: 'pcm' as const, sampleRate: call.sampleRate } : { format: request.format };
}

function oddPcm() {
  return badUpstreamResponse(PROVIDER, '16-bit pcm with an odd byte count');
}

/** 16-bit pcm ends on a whole sample: checked over the whole stream, however it was cut into pieces. */
async function* wholeSamples(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  let total = 0;
  for await (const chunk of chunks) {
    total += chunk.byteLength;
    yield chunk;
  }
  if (total % 2 !== 0) throw oddPcm();
}
