import type { ModelInfo, ProviderAudio, ProviderSynthesisRequest, TtsProvider, VoiceInfo } from '../../core';
import { GoogleClient } from './client';
import { unknownModel, voiceNotInModel } from './errors';
import { findFamily, GOOGLE_FAMILIES, toModelInfo, type GoogleFamily } from './models';
import type { GoogleOptions } from './options-schema';
import { buildSynthesisBody } from './request-body';
import { parseVoiceName } from './voice-name';
import { voicesOfFamily } from './voices';

function familyOf(model: string): GoogleFamily {
  const family = findFamily(model);
  if (!family) throw unknownModel(model);
  return family;
}

/** A live Google Cloud Text-to-Speech instance: fixed families, voices listed by the API. */
export class GoogleProvider implements TtsProvider {
  constructor(private readonly client: GoogleClient) {}

  static create(options: GoogleOptions, fetchImplementation: typeof fetch): GoogleProvider {
    return new GoogleProvider(new GoogleClient(options, fetchImplementation));
  }

  async models(): Promise<readonly ModelInfo[]> {
    return GOOGLE_FAMILIES.map(toModelInfo);
  }

  async voices(model: string, signal?: AbortSignal): Promise<readonly VoiceInfo[]> {
    const family = familyOf(model);
    return voicesOfFamily(await this.client.listVoices(signal), family);
  }

  async synthesize(request: ProviderSynthesisRequest): Promise<ProviderAudio> {
    const family = familyOf(request.model);
    const voice = parseVoiceName(request.voice);
    if (!voice || voice.family !== family.family) throw voiceNotInModel(request.voice, request.model);
    const { body, warnings } = buildSynthesisBody(request, voice.locale, family.capabilities);
    const audio = await this.client.synthesize(body, request.signal);
    return { audio, format: request.format, warnings };
  }
}
