import {
  buildProsodySsml,
  GatewayError,
  type ModelInfo,
  type ProviderAudio,
  type ProviderSynthesisRequest,
  type TtsProvider,
  type VoiceInfo,
} from '../../core';
import type { AzureClient } from './azure-client';
import { AZURE_MODEL, AZURE_MODEL_NAME } from './models';
import { AZURE_OUTPUT_FORMATS } from './output-formats';
import { azureProsody } from './prosody-mapping';
import { localeOfVoice, toVoiceInfo } from './voices';

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
    checkModel(request.model);
    const output = AZURE_OUTPUT_FORMATS[request.format];
    if (!output) {
      throw new GatewayError('TTS_ERR_UNSUPPORTED_FORMAT', `Azure Speech does not produce ${request.format} natively`, {
        details: [{ field: 'format', reason: 'not_native', format: request.format }],
      });
    }
    const warnings: string[] = [];
    if (request.volume !== undefined && request.volume !== 1) {
      warnings.push('Azure Speech was asked for a volume change it does not do natively; it was ignored');
    }
    const ssml = buildProsodySsml({ lang: localeOfVoice(request.voice), voice: request.voice, text: request.text, ...azureProsody(request) });
    const audio = await this.client.synthesize(ssml, output.header, request.signal);
    return {
      audio,
      format: request.format,
      ...(request.format === 'pcm' ? { sampleRate: output.sampleRate } : {}),
      warnings,
    };
  }
}

function checkModel(model: string): void {
  if (model !== AZURE_MODEL_NAME) {
    throw new GatewayError('TTS_ERR_MODEL_NOT_FOUND', `Azure Speech serves only the model ${AZURE_MODEL_NAME}`, {
      details: [{ field: 'model', reason: 'unknown_model', model }],
    });
  }
}
