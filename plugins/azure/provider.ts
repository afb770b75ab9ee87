import type { ModelInfo, ProviderAudio, ProviderAudioStream, ProviderSynthesisRequest, TtsProvider, VoiceInfo } from '../../core';
import type { AzureClient } from './client';
import { notNativeFormat, unknownModel } from './errors';
import { AZURE_MODEL, AZURE_MODEL_NAME } from './models';
import { AZURE_OUTPUT_FORMATS } from './output-formats';
import { azureSsml } from './request-body';
import { toVoiceInfo } from './voices';

/** One Azure Speech resource as a gateway provider. */
export class AzureProvider implements TtsProvider {
  constructor(private readonly client: AzureClient) {}

  async models(): Promise<readonly ModelInfo[]> {
    return [AZURE_MODEL];
  }

  async voices(model: string, signal?: AbortSignal): Promise<readonly VoiceInfo[]> {
    checkModel(model);
    return (await this.client.listVoices(signal)).map(toVoiceInfo);
  }

  async synthesize(request: ProviderSynthesisRequest): Promise<ProviderAudio> {
    const call = synthesisCall(request);
    const audio = await this.client.synthesize(call.ssml, call.outputFormat, request.signal);
    return { audio, ...call.described };
  }

  async synthesizeStream(request: ProviderSynthesisRequest): Promise<ProviderAudioStream> {
    const call = synthesisCall(request);
    const chunks = await this.client.streamSynthesis(call.ssml, call.outputFormat, request.signal);
    return { chunks, ...call.described };
  }
}

/** One synthesis call: the SSML, the `X-Microsoft-OutputFormat`, and what the answer will be. */
function synthesisCall(request: ProviderSynthesisRequest) {
  checkModel(request.model);
  const output = AZURE_OUTPUT_FORMATS[request.format];
  if (!output) throw notNativeFormat(request.format);
  const warnings: string[] = [];
  if (request.volume !== undefined && request.volume !== 1) {
    warnings.push('Azure Speech was asked for a volume change it does not do natively; it was ignored');
  }
  const described = { format: request.format, ...(request.format === 'pcm' ? { sampleRate: output.sampleRate } : {}), warnings };
  return { ssml: azureSsml(request), outputFormat: output.header, described };
}

function checkModel(model: string): void {
  if (model !== AZURE_MODEL_NAME) throw unknownModel(model, AZURE_MODEL_NAME);
}
