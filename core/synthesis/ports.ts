import type { AudioFormat } from '../audio/audio-format';
import type { ModelCapabilities, TtsProvider } from '../plugin/contract';

/** A catalog model resolved to the provider instance that serves it. */
export interface ServedModel {
  readonly instanceId: string;
  readonly provider: TtsProvider;
  /** The provider's own name for the model (the catalog may rename it). */
  readonly providerModel: string;
  readonly capabilities: ModelCapabilities;
}

/** What the synthesis service needs from the catalog. */
export interface ModelDirectory {
  /** Throws TTS_ERR_MODEL_NOT_FOUND for an unknown model. */
  resolve(model: string): ServedModel | Promise<ServedModel>;
  /** Throws TTS_ERR_VOICE_NOT_FOUND when the voice is not the model's (after one refresh). */
  ensureVoice(model: string, voice: string, signal?: AbortSignal): Promise<void>;
}

export interface AudioChunk {
  readonly audio: Uint8Array;
  readonly format: AudioFormat;
  readonly sampleRate?: number;
}

/** The audio engine (decode, join, DSP, encode), off the event loop. */
export interface AudioEngine {
  readonly decodableFormats: readonly AudioFormat[];
  readonly encodableFormats: readonly AudioFormat[];
  process(
    job: { inputs: readonly AudioChunk[]; speed: number; pitch: number; volume: number; output: AudioFormat },
    signal?: AbortSignal,
  ): Promise<{ audio: Uint8Array; format: AudioFormat; sampleRate: number }>;
}

/** Where finished audio is kept for download. */
export interface AudioSink {
  save(audio: Uint8Array, format: AudioFormat, sampleRate?: number): Promise<{ fileName: string; size: number }>;
}
