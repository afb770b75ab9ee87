import {
  decodableFormats,
  encodableFormats,
  probeFfmpegInBackground,
  readStoredAudio,
  type AudioEngine,
  type AudioProcessor,
  type AudioFormat,
  type AudioSink,
  type AudioStore,
  type CacheStorage,
  type CodecOptions,
  type Catalog,
  type ModelDirectory,
} from '../core';

/** The catalog as the synthesis service sees it. */
export function modelDirectory(catalog: Catalog): ModelDirectory {
  return {
    resolve: (model) => catalog.resolve(model),
    ensureVoice: async (model, voice, signal) => {
      await catalog.findVoice(model, voice, signal);
    },
  };
}

/** The worker-pool audio processor as the synthesis service sees it. */
export function audioEngine(processor: AudioProcessor): AudioEngine {
  return {
    // Computed once: aac depends on whether the processor's ffmpeg runs.
    decodableFormats: processor.decodableFormats,
    encodableFormats: processor.encodableFormats,
    process: (job, control) => processor.process(job, control),
    reserveProcessing: (output, audioSeconds, deadline) => processor.reserve(output, audioSeconds, deadline),
    // Each session lives in one audio worker: decode, DSP and encoding carry their state across inputs.
    openStream: (spec, control) => processor.openStream(spec, control),
  };
}

/**
 * The same, with the processor (and so its worker threads) made by `start` at its first job.
 * Whether aac is possible (ffmpeg runs) is asked from here on, in the background: asked at the
 * first synthesis instead, the probe held every request for as long as ffmpeg took to start
 * (60 ms on a quiet 2-core machine, half a second under load).
 */
export function lazyAudioEngine(start: () => AudioProcessor, codecs: CodecOptions): AudioEngine {
  let decodable: readonly AudioFormat[] | undefined;
  let encodable: readonly AudioFormat[] | undefined;
  let formatsPending: Promise<void> | undefined = probeFfmpegInBackground(codecs).then(() => {
    formatsPending = undefined;
  });
  return {
    get formatsPending() {
      return formatsPending;
    },
    get decodableFormats() {
      return (decodable ??= decodableFormats(codecs));
    },
    get encodableFormats() {
      return (encodable ??= encodableFormats(codecs));
    },
    process: (job, signal) => start().process(job, signal),
    reserveProcessing: (output, audioSeconds, deadline) => start().reserve(output, audioSeconds, deadline),
    openStream: (spec, control) => start().openStream(spec, control),
  };
}

/**
 * Whether a saved file is recorded against its account: only for `limits.storageBytes`, the one
 * reader of those records. Without a quota, a save skips that bookkeeping (two file system calls).
 */
export interface OwnerRecording {
  readonly recordOwners: boolean;
}

/** The download store as the synthesis service sees it. */
export function audioSink(store: AudioStore, { recordOwners }: OwnerRecording): AudioSink {
  return {
    save: (audio, format, sampleRate, control) => store.save(audio, format, { sampleRate, signal: control?.signal, ...(recordOwners && { owner: control?.owner }) }),
  };
}

/**
 * The download store as the result cache sees it: bytes by file name, and new files. A read
 * answers none only for a file that is gone; a store that fails or stalls rejects, so that the
 * cache keeps its entry (readStoredAudio).
 */
export function cacheStorage(store: AudioStore, { recordOwners }: OwnerRecording): CacheStorage {
  return {
    read: (fileName, signal) => readStoredAudio(store, fileName, signal),
    save: (audio, format, sampleRate, owner, signal) => store.save(audio, format, { sampleRate, signal, ...(recordOwners && { owner }) }),
    // A hit's new name without a copy of its bytes, where the store can (the folder store links).
    ...(store.share && { share: (fileName: string, owner?: string, signal?: AbortSignal) => store.share!(fileName, { signal, ...(recordOwners && { owner }) }) }),
  };
}
