import { addAbortSignal, type Readable } from 'node:stream';
import { isGatewayError } from '../errors';
import type { AudioStore } from './audio-store';

/**
 * A stored file's bytes, whole; undefined only when the file is gone for good (missing,
 * expired, or removed between locate and open: S3's 404, the folder's ENOENT). Any other
 * failure rejects (the store is unavailable now, a stalled read stopped by `signal`): the
 * caller must not take it for a missing file. `signal` stops the lookup, the open and the
 * reading of the bytes alike.
 */
export async function readStoredAudio(store: AudioStore, fileName: string, signal?: AbortSignal): Promise<Uint8Array | undefined> {
  const options = signal ? { signal } : {};
  const located = await store.locate(fileName, options);
  if (!located) return undefined;
  const stream = await located.open(undefined, options).catch((error: unknown) => (isGatewayError(error) && error.code === 'TTS_ERR_NOT_FOUND' ? undefined : Promise.reject(error)));
  return stream && readWhole(signal ? addAbortSignal(signal, stream) : stream);
}

async function readWhole(stream: Readable): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of stream) chunks.push(chunk as Uint8Array);
  return Buffer.concat(chunks);
}
