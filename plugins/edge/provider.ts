import type { ModelInfo, ProviderAudio, ProviderAudioStream, ProviderSynthesisRequest, TtsProvider, VoiceGender, VoiceInfo } from '../../core';
import type { EdgeClient } from './client';
import { notNativeFormat, unknownModel } from './errors';
import { EDGE_MODEL, EDGE_MODEL_NAME, EDGE_OUTPUT_FORMAT } from './models';
import { edgeSsml } from './request-body';
import { toVoiceInfo } from './voices';

/** Microsoft Edge's read-aloud voices as a gateway provider. */
export class EdgeProvider implements TtsProvider {
  /** Each listed voice's gender, which sets the reference frequency of its Hz pitch. */
  private readonly genders = new Map<string, VoiceGender>();

  constructor(private readonly client: EdgeClient) {}

  async models(): Promise<readonly ModelInfo[]> {
    return [EDGE_MODEL];
  }

  async voices(model: string, signal?: AbortSignal): Promise<readonly VoiceInfo[]> {
    checkModel(model);
    const voices = (await this.client.listVoices(signal)).map(toVoiceInfo);
    for (const voice of voices) this.genders.set(voice.voiceId, voice.gender);
    return voices;
  }

  async synthesize(request: ProviderSynthesisRequest): Promise<ProviderAudio> {
    const call = this.turnCall(request);
    const audio = await this.client.synthesize(call.ssml, EDGE_OUTPUT_FORMAT, request.signal);
    return { audio, format: 'mp3', warnings: call.warnings };
  }

  /** The turn's binary audio frames, handed on as the socket receives them. */
  async synthesizeStream(request: ProviderSynthesisRequest): Promise<ProviderAudioStream> {
    const call = this.turnCall(request);
    const chunks = await this.client.streamSynthesis(call.ssml, EDGE_OUTPUT_FORMAT, request.signal);
    return { chunks, format: 'mp3', warnings: call.warnings };
  }

  /** The SSML of one turn and the warnings it comes with. */
  private turnCall(request: ProviderSynthesisRequest): { ssml: string; warnings: string[] } {
    checkModel(request.model);
    if (request.format !== 'mp3') throw notNativeFormat(request.format);
    const warnings: string[] = [];
    if (request.volume !== undefined && request.volume !== 1) {
      warnings.push('Edge read-aloud was asked for a volume change it does not do natively; it was ignored');
    }
    return { ssml: edgeSsml(request, this.genders.get(request.voice) ?? 'Unknown'), warnings };
  }
}

function checkModel(model: string): void {
  if (model !== EDGE_MODEL_NAME) throw unknownModel(model, EDGE_MODEL_NAME);
}
