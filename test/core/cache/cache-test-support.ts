import type { CacheStorage, SynthesisRequest, SynthesisStream } from '../../../core';

/** A synthesis request with defaults, for the cache's tests. */
export const request = (overrides: Partial<SynthesisRequest> = {}): SynthesisRequest => ({ model: 'm', voice: 'v', text: 'Hello  there.', speed: 1, pitch: 1, volume: 1, format: 'mp3', ...overrides });

/** Stored files in memory, each under a new name (numbered in the order they are saved). */
export function memoryStorage(files = new Map<string, Uint8Array>()): CacheStorage {
  let saved = 0;
  return {
    read: async (fileName) => files.get(fileName),
    save: async (audio, format) => {
      saved += 1;
      const fileName = `file-${saved}.${format}`;
      files.set(fileName, audio);
      return { fileName, size: audio.byteLength };
    },
  };
}

/** A stream's pieces read whole, as text. */
export async function text(stream: SynthesisStream): Promise<string> {
  let all = '';
  for await (const piece of stream.chunks) all += Buffer.from(piece).toString();
  return all;
}
