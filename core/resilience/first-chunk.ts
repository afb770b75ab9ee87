import { awaitFirstChunk } from '../http';
import type { ProviderAudioStream } from '../plugin/contract';

/**
 * Waits for a stream's first non-empty chunk, so that a failure before any audio can still be
 * retried; the stream handed on yields that chunk, then the rest from the same source.
 */
export async function withFirstChunk(stream: ProviderAudioStream, instanceId: string): Promise<ProviderAudioStream> {
  return { ...stream, chunks: await awaitFirstChunk(instanceId, stream.chunks) };
}
