import { readFile } from 'node:fs/promises';
import {
  DECODABLE_FORMATS,
  ENCODABLE_FORMATS,
  type AudioChunk,
  type AudioEngine,
  type AudioProcessor,
  type AudioSink,
  type AudioStore,
  type CacheStorage,
  type Catalog,
  type ModelDirectory,
} from '../core';

/** The catalog as the synthesis service sees it. */
export function modelDirectory(catalog: Catalog): ModelDirectory {
  return {
    resolve: (model) => {
      const resolved = catalog.resolve(model);
      return {
        instanceId: resolved.instance.instanceId,
        provider: resolved.provider,
        providerModel: resolved.providerModelName,
        capabilities: resolved.modelInfo.capabilities,
      };
    },
    ensureVoice: async (model, voice, signal) => {
      await catalog.findVoice(model, voice, signal);
    },
  };
}

/** The worker-pool audio processor as the synthesis service sees it. */
export function audioEngine(processor: AudioProcessor): AudioEngine {
  return {
    decodableFormats: DECODABLE_FORMATS,
    encodableFormats: ENCODABLE_FORMATS,
    process: (job, signal) => processor.process(job, signal),
    // Interim until the audio workers stream: the session encodes everything at its end.
    openStream: async (spec) => {
      const inputs: AudioChunk[] = [];
      const empty = { audio: new Uint8Array(0), sampleRate: spec.sampleRate ?? 0, durationSeconds: 0 };
      return {
        push: async (input: AudioChunk) => {
          inputs.push(input);
          return empty;
        },
        end: async (signal?: AbortSignal) => {
          const result = await processor.process({ inputs, speed: spec.speed, pitch: spec.pitch, volume: spec.volume, output: spec.output }, signal);
          return { audio: result.audio, sampleRate: result.sampleRate, durationSeconds: result.durationSeconds };
        },
        close: async () => undefined,
      };
    },
  };
}

/** The download store as the synthesis service sees it. */
export function audioSink(store: AudioStore): AudioSink {
  return { save: (audio, format, sampleRate) => store.save(audio, format, { sampleRate }) };
}

/** The download store as the result cache sees it: bytes by file name, and new files. */
export function cacheStorage(store: AudioStore): CacheStorage {
  return {
    read: async (fileName) => {
      const located = await store.locate(fileName).catch(() => undefined);
      if (!located) return undefined;
      return readFile(located.path).catch(() => undefined);
    },
    save: (audio, format, sampleRate) => store.save(audio, format, { sampleRate }),
  };
}
