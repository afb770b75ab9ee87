import type { Readable } from 'node:stream';
import { LinkedAbort } from '../abort/linked-abort';
import { destroyQuietly, isNodeBodyResponse } from './node-body-response';
import { answerBrokeOff, badUpstreamResponse, upstreamAnswerError, upstreamFailure, type UpstreamRequest } from './upstream-fetch';

/** A successful upstream answer whose body is read as it arrives. */
export interface UpstreamStreamResponse {
  readonly status: number;
  readonly headers: Headers;
  /** The body in pieces; throws a coded error if it breaks off or stalls. */
  readonly chunks: AsyncIterable<Uint8Array>;
  /** Drops the body unread and releases the connection. */
  cancel(): Promise<void>;
}

/** Error bodies are read only this far: enough for the provider's message. */
const ERROR_BODY_BYTES = 4096;

/**
 * Aborts when the caller's signal does, or when it has not been touched for `timeoutMs`: a
 * stall, not a long answer, is the fault. One signal for both, so that no `AbortSignal.any` is
 * made per call.
 */
class IdleDeadline {
  private readonly link: LinkedAbort;
  private readonly timer: NodeJS.Timeout;
  /** While the reader holds a piece, the wait is the reader's (a slow client), not the provider's. */
  private held = false;

  constructor(caller: AbortSignal | undefined, timeoutMs: number) {
    this.link = new LinkedAbort([caller]);
    this.timer = setTimeout(() => this.expire(), timeoutMs);
    this.timer.unref();
  }

  get signal(): AbortSignal {
    return this.link.signal;
  }

  touch(): void {
    this.timer.refresh();
  }

  /** The reader has a piece: the clock does not count against the provider until it asks again. */
  hold(): void {
    this.held = true;
  }

  /** The reader asks for the next piece: the provider gets a whole stall time for it. */
  release(): void {
    this.held = false;
    this.timer.refresh();
  }

  private expire(): void {
    if (!this.held) this.link.abort(new Error('upstream stalled'));
  }

  stop(): void {
    clearTimeout(this.timer);
    this.link.dispose();
  }
}

/**
 * Calls a provider and hands its body on piece by piece. Failures map as in `upstreamFetch`;
 * `timeoutMs` bounds the wait for the headers and every wait between two pieces of the body.
 */
export async function upstreamStream(request: UpstreamRequest): Promise<UpstreamStreamResponse> {
  const idle = new IdleDeadline(request.signal, request.timeoutMs);
  const signal = idle.signal;
  let response: Response;
  try {
    response = await request.fetch(request.url, { method: request.method ?? 'GET', headers: request.headers, body: request.body, signal });
    if (!response.ok) {
      const text = new TextDecoder().decode((await readAtMost(response, ERROR_BODY_BYTES)).subarray(0, ERROR_BODY_BYTES));
      throw upstreamAnswerError(request, { status: response.status, headers: response.headers, text });
    }
  } catch (error) {
    idle.stop();
    throw upstreamFailure(error, request, idle.signal);
  }
  // The pooled fetch's answers hand their Node stream over: no web stream made per call.
  const nodeBody = isNodeBodyResponse(response) ? response.takeNodeBody() : undefined;
  if (nodeBody) {
    return {
      status: response.status,
      headers: response.headers,
      chunks: readNodeBody(nodeBody, idle, request),
      cancel: async () => {
        idle.stop();
        destroyQuietly(nodeBody);
      },
    };
  }
  const body = response.body;
  return {
    status: response.status,
    headers: response.headers,
    chunks: readBody(response, idle, request),
    cancel: async () => {
      idle.stop();
      await body?.cancel().catch(() => undefined);
    },
  };
}

/** The body of a 2xx that must be audio: a JSON or text body is the provider's fault (502). */
export function upstreamAudioStream(provider: string, response: UpstreamStreamResponse): AsyncIterable<Uint8Array> {
  const contentType = response.headers.get('content-type') ?? '';
  if (contentType.includes('json') || contentType.startsWith('text/')) {
    void response.cancel();
    throw badUpstreamResponse(provider, `expected audio, got ${contentType.split(';')[0]}`);
  }
  return response.chunks;
}

async function* readBody(response: Response, idle: IdleDeadline, request: UpstreamRequest): AsyncGenerator<Uint8Array> {
  if (!response.body) {
    idle.stop();
    return;
  }
  const reader = response.body.getReader();
  let done = false;
  try {
    while (!done) {
      const next = await reader.read();
      idle.touch();
      done = next.done;
      if (next.value && next.value.byteLength > 0) {
        idle.hold();
        yield next.value;
        idle.release();
      }
    }
  } catch (error) {
    done = true;
    throw answerBrokeOff(error, request, idle.signal);
  } finally {
    idle.stop();
    // Stopped early (client gone, a check failed): release the connection.
    if (!done) await reader.cancel().catch(() => undefined);
  }
}

async function* readNodeBody(body: Readable, idle: IdleDeadline, request: UpstreamRequest): AsyncGenerator<Uint8Array> {
  try {
    // Leaving the loop early (client gone, a check failed) destroys the stream: the connection is released.
    for await (const piece of body as AsyncIterable<Uint8Array>) {
      idle.touch();
      if (piece.byteLength > 0) {
        idle.hold();
        yield piece;
        idle.release();
      }
    }
  } catch (error) {
    throw answerBrokeOff(error, request, idle.signal);
  } finally {
    idle.stop();
  }
}

async function readAtMost(response: Response, limit: number): Promise<Uint8Array> {
  if (!response.body) return new Uint8Array(0);
  const reader = response.body.getReader();
  const parts: Uint8Array[] = [];
  let total = 0;
  try {
    while (total < limit) {
      const next = await reader.read();
      if (next.done) break;
      parts.push(next.value);
      total += next.value.byteLength;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return Buffer.concat(parts);
}

/**
 * Reads a stream's first non-empty piece before handing the stream on, so that a failure the
 * provider reports before any audio (an error event in an event stream, a refusal, a stream with
 * no bytes at all: `TTS_ERR_UPSTREAM_BAD_RESPONSE`) is thrown when the call starts, as
 * `synthesizeStream` promises, and can still be retried; not in the middle of the client's
 * answer. Closing the returned stream, even before reading it, closes the one underneath.
 */
export async function awaitFirstChunk(provider: string, chunks: AsyncIterable<Uint8Array>): Promise<AsyncIterable<Uint8Array>> {
  const iterator = chunks[Symbol.asyncIterator]();
  let first: IteratorResult<Uint8Array> | undefined = await iterator.next();
  while (!first.done && first.value.byteLength === 0) first = await iterator.next();
  if (first.done) throw badUpstreamResponse(provider, 'an audio stream without audio');
  return new FirstThenRest(first, iterator);
}

/**
 * The piece already read, then the rest. A class, not an object literal with a
 * `[Symbol.asyncIterator]` key: V8 builds such a literal on its slow path (measured: 250 ns
 * against 6), with a map of its own that makes every later read of it slow as well.
 */
class FirstThenRest implements AsyncIterableIterator<Uint8Array> {
  constructor(
    private first: IteratorResult<Uint8Array> | undefined,
    private readonly iterator: AsyncIterator<Uint8Array>,
  ) {}

  [Symbol.asyncIterator](): this {
    return this;
  }

  async next(): Promise<IteratorResult<Uint8Array>> {
    const { first } = this;
    if (!first) return this.iterator.next();
    this.first = undefined;
    return first;
  }

  async return(): Promise<IteratorResult<Uint8Array>> {
    this.first = undefined;
    await this.iterator.return?.();
    return { done: true, value: undefined };
  }
}
