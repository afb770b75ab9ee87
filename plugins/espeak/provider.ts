/** The espeak provider: one model, a fixed voice list, synthesis in a worker pool. */
import type { ModelInfo, ProviderAudio, ProviderSynthesisRequest, TtsProvider, VoiceInfo } from '../../core';
import type { EspeakSynthesisClient } from './client';
import { cancelled, notNativeFormat, unknownModel, unknownVoice } from './errors';
import { ESPEAK_MODEL, ESPEAK_MODEL_NAME } from './models';
import { DEFAULT_VOICE } from './options-schema';
import { toEngineProsody } from './request-body';
import { VoiceCatalogue } from './voices';
import type { EngineFormat } from './worker-messages';

const ENGINE_FORMATS: readonly string[] = ESPEAK_MODEL.capabilities.formats;

export class EspeakProvider implements TtsProvider {
  private catalogue?: Promise<VoiceCatalogue>;

  constructor(
    private readonly client: EspeakSynthesisClient,
    private readonly defaultVoice: string = DEFAULT_VOICE,
  ) {}

  async models(): Promise<readonly ModelInfo[]> {
    return [ESPEAK_MODEL];
  }

  async voices(model: string): Promise<readonly VoiceInfo[]> {
    assertModel(model);
    return (await this.loadCatalogue()).voices;
  }

  async synthesize(request: ProviderSynthesisRequest): Promise<ProviderAudio> {
    if (request.signal.aborted) throw cancelled();
    assertModel(request.model);
    if (!ENGINE_FORMATS.includes(request.format)) throw notNativeFormat(request.format, ENGINE_FORMATS);
    const voiceIdentifier = await this.resolveVoice(request.voice.trim() || this.defaultVoice);
    const result = await this.client.synthesize({
      voiceIdentifier,
      text: request.text,
      prosody: toEngineProsody(request),
      format: request.format as EngineFormat,
      signal: request.signal,
      deadline: request.deadline,
      continuation: request.continuation === true,
    });
    // The worker made the bytes for this answer and moved them here: nothing else holds them.
    return { audio: result.audio, format: request.format, sampleRate: result.sampleRate, warnings: [], transferable: true };
  }

  /**
   * Reads the voice list (it is fixed, and kept) and checks the default voice, then stops the
   * worker that read it: a gateway without traffic holds no engine. Workers start again with
   * the first synthesis; the MP3 encoder loads at its first use.
   */
  async warmUp(): Promise<void> {
    await this.resolveVoice(this.defaultVoice);
    await this.client.stopIdleWorkers();
  }

  close(): Promise<void> {
    return this.client.close();
  }

  private async resolveVoice(voiceId: string): Promise<string> {
    const identifier = (await this.loadCatalogue()).identifierOf(voiceId);
    if (identifier) return identifier;
    throw unknownVoice(voiceId);
  }

  /** The list is fixed by the bundled voice data: loaded once, retried only if loading failed. */
  private loadCatalogue(): Promise<VoiceCatalogue> {
    this.catalogue ??= this.client.listVoices().then(
      (voices) => new VoiceCatalogue(voices),
      (error: unknown) => {
        this.catalogue = undefined;
        throw error;
      },
    );
    return this.catalogue;
  }
}

function assertModel(model: string): void {
  if (model !== ESPEAK_MODEL_NAME) throw unknownModel(model);
}
