import type { ModelInfo, ProviderAudio, ProviderSynthesisRequest, TtsProvider, VoiceInfo } from '../../core';
import { PollyClient } from './client';
import { notNativeFormat, unknownModel } from './errors';
import { findEngine, POLLY_ENGINES, toModelInfo, type PollyEngine } from './models';
import type { PollyOptions } from './options-schema';
import { POLLY_OUTPUTS } from './output-formats';
import { buildSynthesizeSpeechBody } from './request-body';
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
    const engine = engineOf(request.model);
    const output = POLLY_OUTPUTS[request.format];
    if (!output) throw notNativeFormat(request.format);
    const warnings = request.pitch !== undefined && request.pitch !== 1 ? [`pitch ${request.pitch} is not native for ${request.model}; not applied by Polly`] : [];
    const audio = await this.client.synthesizeSpeech(buildSynthesizeSpeechBody(request, engine, output), output, request.signal);
    return { audio, format: request.format, sampleRate: output.sampleRate(engine), warnings };
  }
}
