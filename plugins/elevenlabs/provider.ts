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
    if (call.sampleRate !== undefined && audio.byteLength % 2 !== 0) throw oddPcm();
    return { audio, ...describe(request, call), warnings: [] };
  }

  async synthesizeStream(request: ProviderSynthesisRequest): Promise<ProviderAudioStream> {
    const call = toElevenLabsCall(request, this.options);
    const chunks = await this.client.streamTextToSpeech(request.voice, call.outputFormat, call.body, request.signal);
    return { chunks: call.sampleRate !== undefined ? wholeSamples(chunks) : chunks, ...describe(request, call), warnings: [] };
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
