import type { Readable } from 'node:stream';

/**
 * A Node body as a web stream, read only as its reader asks (no piece queued ahead). Node 20's
 * `Readable.toWeb` hands on data the Node stream still had buffered after the web stream was
 * cancelled, and its enqueue then throws ERR_INVALID_STATE outside any caller: an uncaught
 * exception, which ended the process whenever a reader let go of a body still arriving (a
 * client leaving a stream, a provider's answer over its size bound).
 */
export function nodeBodyAsWebStream(body: Readable): ReadableStream<Uint8Array> {
  const pieces = (body as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]();
  let cancelled = false;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const next = await pieces.next();
        if (cancelled) return;
        if (next.done) controller.close();
        // A copy: a pooled Buffer's memory is shared with other pieces.
        else controller.enqueue(new Uint8Array(next.value));
      },
      cancel() {
        cancelled = true;
        // Destroyed, not returned: a return would wait behind a read that may never end.
        body.on('error', () => undefined);
        body.destroy();
      },
    },
    { highWaterMark: 0 },
  );
}
