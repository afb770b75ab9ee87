import { badUpstreamResponse } from '../http';
import type { ProviderAudioStream } from '../plugin/contract';

/**
 * Waits for a stream's first non-empty chunk, so that a failure before any audio can still be
 * retried; the stream handed on yields that chunk, then the rest from the same source.
 */
export async function withFirstChunk(stream: ProviderAudioStream, instanceId: string): Promise<ProviderAudioStream> {
  const iterator = stream.chunks[Symbol.asyncIterator]();
  let first = await iterator.next();
  while (!first.done && first.value.byteLength === 0) first = await iterator.next();
  if (first.done) throw badUpstreamResponse(instanceId, 'an audio stream without audio');
  return { ...stream, chunks: replay(first.value, iterator) };
}

async function* replay(first: Uint8Array, iterator: AsyncIterator<Uint8Array>): AsyncGenerator<Uint8Array> {
  let finished = false;
  try {
    yield first;
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
    finished = true;
  } finally {
    // The consumer stopped early: let the source release its connection.
    if (!finished) await iterator.return?.();
  }
}
