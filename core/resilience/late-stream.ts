import type { ProviderAudioStream, ProviderSynthesisRequest } from '../plugin/contract';
import { abortError } from './deadline';
import { withFirstChunk } from './first-chunk';

/**
 * Closes a provider stream nobody will read: its iterator's `return()` releases what holds it
 * (a ReadableStream is cancelled, an upstream body's connection released). Never throws.
 */
export function closeUnread(stream: ProviderAudioStream): void {
  void Promise.resolve()
    .then(() => stream.chunks[Symbol.asyncIterator]().return?.())
    .catch(() => undefined);
}

/**
 * Closes the stream an abandoned attempt still hands over: a plugin that ignores its signal may
 * resolve after the deadline (or the caller) answered, and its stream would hold an upstream
 * connection and its body's bytes for nobody.
 */
export function closeWhenItComes(abandoned: Promise<ProviderAudioStream>): void {
  abandoned.then(closeUnread, () => undefined);
}

/**
 * One stream attempt: the provider's stream, its first chunk awaited. A stream handed over once
 * the attempt's signal has aborted is closed at once, unread: its first chunk may never come.
 */
export async function streamAttempt(open: (request: ProviderSynthesisRequest) => Promise<ProviderAudioStream>, request: ProviderSynthesisRequest, instanceId: string): Promise<ProviderAudioStream> {
  const stream = await open(request);
  if (request.signal.aborted) {
    closeUnread(stream);
    throw abortError(instanceId, request.signal);
  }
  return withFirstChunk(stream, instanceId);
}
