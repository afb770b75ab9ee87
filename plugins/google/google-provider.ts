import { GatewayError, type ModelInfo, type ProviderAudio, type ProviderSynthesisRequest, type TtsProvider, type VoiceInfo } from '../../core';
import { GoogleClient } from './google-client';
import { findFamily, GOOGLE_FAMILIES, toModelInfo, type GoogleFamily } from './models';
import type { GoogleOptions } from './options-schema';
import { AUDIO_ENCODINGS, mapProsody } from './parameter-mapping';
import { parseVoiceName } from './voice-name';
import { voicesOfFamily } from './voices';

function familyOf(model: string): GoogleFamily {
  const family = findFamily(model);
  if (!family) throw new GatewayError('TTS_ERR_MODEL_NOT_FOUND', `Google serves no model '${model}'`, { details: [{ field: 'model', reason: 'unknown' }] });
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
    if (!voice || voice.family !== family.family) {
      throw new GatewayError('TTS_ERR_VOICE_NOT_FOUND', `'${request.voice}' is not a voice of ${request.model}`, {
        details: [{ field: 'voice', reason: 'not_in_model' }],
      });
    }
    const audioEncoding = AUDIO_ENCODINGS[request.format];
    if (!audioEncoding) {
      throw new GatewayError('TTS_ERR_UNSUPPORTED_FORMAT', `Google does not return ${request.format} natively`, { details: [{ field: 'format', reason: 'not_native' }] });
    }
    const { prosody, warnings } = mapProsody(request, family.capabilities);
    const audio = await this.client.synthesize(
      { input: { text: request.text }, voice: { languageCode: voice.locale, name: request.voice }, audioConfig: { audioEncoding, ...prosody } },
      request.signal,
    );
    return { audio, format: request.format, warnings };
  }
}
