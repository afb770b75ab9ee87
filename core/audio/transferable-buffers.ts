import type { AudioInput } from './audio-job';

/**
 * The buffers of inputs whose owner gave them away, to be moved to a worker thread rather than
 * copied. A copy leaves the original to the event loop's garbage collector, and under load tens
 * of MB of audio already handed on wait there to be collected. Each buffer is listed once.
 */
export function transferableBuffers(inputs: readonly AudioInput[]): ArrayBuffer[] {
  const buffers = new Set<ArrayBuffer>();
  for (const input of inputs) {
    const { buffer } = input.audio;
    if (input.transferable === true && buffer instanceof ArrayBuffer && buffer.byteLength > 0) buffers.add(buffer);
  }
  return [...buffers];
}
