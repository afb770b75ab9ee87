import type { ModelInfo, ProviderAudio, ProviderAudioStream, ProviderSynthesisRequest, TtsProvider, VoiceInfo } from '../../core';
import { PollyClient } from './client';
import { notNativeFormat, unknownModel } from './errors';
import { findEngine, POLLY_ENGINES, toModelInfo, type PollyEngine } from './models';
import type { PollyOptions } from './options-schema';
import { POLLY_OUTPUTS, type PollyOutput } from './output-formats';
import { buildSynthesizeSpeechBody, type SynthesizeSpeechBody } from './request-body';
import { voicesOfEngine } from './voices';

function engineOf(model: string): PollyEngine {
  const engine = findEngine(model);
  if (!engine) throw unknownModel(model);
  return engine;
}

/** A live Amazon Polly instance: one model per engine, voices from DescribeVoices. */
export class PollyProvider implements TtsProvider {
  constructor(private readonly client: PollyClient) {}

  static create(options: PollyOptions, fetchImplementation: typeof fetch): PollyProvider {
    return new PollyProvider(new PollyClient(options, fetchImplementation));
  }

  async models(): Promise<readonly ModelInfo[]> {
    return POLLY_ENGINES.map(toModelInfo);
  }

  async voices(model: string, signal?: AbortSignal): Promise<readonly VoiceInfo[]> {
    const engine = engineOf(model);
    return voicesOfEngine(await this.client.describeVoices(engine.engine, signal), engine);
  }

  async synthesize(request: ProviderSynthesisRequest): Promise<ProviderAudio> {
    const call = speechCall(request);
    const audio = await this.client.synthesizeSpeech(call.body, call.output, request.signal);
    return { audio, ...call.described };
  }

  async synthesizeStream(request: ProviderSynthesisRequest): Promise<ProviderAudioStream> {
    const call = speechCall(request);
    const chunks = await this.client.streamSpeech(call.body, call.output, request.signal);
    return { chunks, ...call.described };
  }
}

/** One SynthesizeSpeech call: its body, the output asked for, and what the answer will be. */
function speechCall(request: ProviderSynthesisRequest): {
  body: SynthesizeSpeechBody;
  output: PollyOutput;
  described: { format: ProviderSynthesisRequest['format']; sampleRate: number; warnings: string[] };
} {
  const engine = engineOf(request.model);
  const output = POLLY_OUTPUTS[request.format];
  if (!output) throw notNativeFormat(request.format);
  const warnings = request.pitch !== undefined && request.pitch !== 1 ? [`pitch ${request.pitch} is not native for ${request.model}; not applied by Polly`] : [];
  return { body: buildSynthesizeSpeechBody(request, engine, output), output, described: { format: request.format, sampleRate: output.sampleRate(engine), warnings } };
}
