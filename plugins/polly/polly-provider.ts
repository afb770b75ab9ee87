import { GatewayError, type ModelInfo, type ProviderAudio, type ProviderSynthesisRequest, type TtsProvider, type VoiceInfo } from '../../core';
import { findEngine, POLLY_ENGINES, toModelInfo, type PollyEngine } from './engines';
import type { PollyOptions } from './options-schema';
import { POLLY_OUTPUTS } from './output-formats';
import { PollyClient } from './polly-client';
import { toPollyText } from './ssml';
import { voicesOfEngine } from './voices';

function engineOf(model: string): PollyEngine {
  const engine = findEngine(model);
  if (!engine) throw new GatewayError('TTS_ERR_MODEL_NOT_FOUND', `Amazon Polly serves no model '${model}'`, { details: [{ field: 'model', reason: 'unknown' }] });
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
    if (!output) {
      throw new GatewayError('TTS_ERR_UNSUPPORTED_FORMAT', `Amazon Polly does not return ${request.format} natively`, { details: [{ field: 'format', reason: 'not_native' }] });
    }
    const warnings = request.pitch !== undefined && request.pitch !== 1 ? [`pitch ${request.pitch} is not native for ${request.model}; not applied by Polly`] : [];
    const sampleRate = output.sampleRate(engine);
    const audio = await this.client.synthesizeSpeech(
      { Engine: engine.engine, OutputFormat: output.outputFormat, SampleRate: String(sampleRate), VoiceId: request.voice, ...toPollyText(request) },
      output,
      request.signal,
    );
    return { audio, format: request.format, sampleRate, warnings };
  }
}
