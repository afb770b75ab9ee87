import { expect } from 'chai';
import type { ServerResponse } from 'node:http';
import { createGzip } from 'node:zlib';
import { createPooledFetch, type GatewayError, upstreamStream, type PooledFetch } from '../../../core';
import { startUpstream } from './local-upstream';

/** Waits until `closed` holds `count` entries (the server saw each answer's connection close), 1 s at most. */
async function untilClosed(closed: readonly string[], count: number): Promise<void> {
  for (let wait = 0; closed.length < count && wait < 100; wait += 1) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe('core/http upstreamStream over the pooled fetch (the Node stream is iterated, no web stream made)', () => {
  let pooled: PooledFetch;
  let upstream: Awaited<ReturnType<typeof startUpstream>>;

  beforeEach(() => (pooled = createPooledFetch()));
  afterEach(async () => {
    await pooled.close();
    await upstream.close();
  });


  const streamCall = (url: string, options: { timeoutMs?: number; signal?: AbortSignal } = {}) =>
    upstreamStream({ provider: 'Stand-in', fetch: pooled.fetch, url, timeoutMs: options.timeoutMs ?? 5000, ...(options.signal ? { signal: options.signal } : {}) });
  const failureOf = async (chunks: AsyncIterable<Uint8Array>): Promise<GatewayError> => {
    try {
      for await (const _chunk of chunks);
    } catch (error) {
      return error as GatewayError;
    }
    throw new Error('the stream did not fail');
  };

  it('hands on every piece, then ends', async () => {
    upstream = await startUpstream((request, body, response) => {
      response.writeHead(200, { 'content-type': 'audio/mpeg' });
      response.write('one ');
      setImmediate(() => response.end('two'));
    });
    const answer = await streamCall(`${upstream.base}/audio`);
    let text = '';
    for await (const chunk of answer.chunks) text += Buffer.from(chunk).toString();
    expect(text).to.equal('one two');
  });

  it('fails with a timeout when the body stalls', async () => {
    upstream = await startUpstream((request, body, response) => {
      response.writeHead(200, { 'content-type': 'audio/mpeg' });
      response.write('one '); // and then nothing
    });
    const answer = await streamCall(`${upstream.base}/stall`, { timeoutMs: 50 });
    expect((await failureOf(answer.chunks)).code).to.equal('TTS_ERR_TIMEOUT');
  });

  it('does not count as a stall the time its own reader takes over a piece (a slow client is not a slow provider)', async () => {
    const total = 4 * 1024 * 1024;
    upstream = await startUpstream((request, body, response) => {
      response.writeHead(200, { 'content-type': 'audio/mpeg' });
      response.end(Buffer.alloc(total, 1)); // all at once: the provider never stalls
    });
    // The Node stream of the pooled fetch, and the web stream of any other fetch.
    for (const call of [pooled.fetch, globalThis.fetch]) {
      const answer = await upstreamStream({ provider: 'Stand-in', fetch: call, url: `${upstream.base}/slow-reader`, timeoutMs: 100 });
      let received = 0;
      for await (const chunk of answer.chunks) {
        // The reader holds its first piece three stall times (a client that reads slowly pushes back).
        if (received === 0) await new Promise((resolve) => setTimeout(resolve, 300));
        received += chunk.byteLength;
      }
      expect(received, call === pooled.fetch ? 'pooled' : 'platform').to.equal(total);
    }
  });

  it("fails as cancelled when the caller's signal aborts in the middle of the body", async () => {
    upstream = await startUpstream((request, body, response) => {
      response.writeHead(200, { 'content-type': 'audio/mpeg' });
      response.write('one ');
    });
    const caller = new AbortController();
    const answer = await streamCall(`${upstream.base}/gone`, { signal: caller.signal });
    const iterator = answer.chunks[Symbol.asyncIterator]();
    await iterator.next();
    caller.abort(new Error('client went away'));
    const error = await iterator.next().then(
      () => undefined,
      (failure: unknown) => failure as GatewayError,
    );
    expect(error?.code).to.equal('TTS_ERR_CANCELLED');
  });

  it('closes the body when the reader stops early or cancels it', async () => {
    const closed: string[] = [];
    upstream = await startUpstream((request, body, response) => {
      response.writeHead(200, { 'content-type': 'audio/mpeg' });
      response.write('one ');
      response.on('close', () => closed.push(request.url ?? ''));
    });
    const stopped = await streamCall(`${upstream.base}/stopped`);
    for await (const _chunk of stopped.chunks) break;
    const cancelled = await streamCall(`${upstream.base}/cancelled`);
    await cancelled.cancel();
    await untilClosed(closed, 2);
    expect(closed.sort()).to.deep.equal(['/cancelled', '/stopped']);
  });

  /** A gzip-encoded answer that sends one piece and then holds the connection open. */
  const compressedPiece = (response: ServerResponse): void => {
    response.writeHead(200, { 'content-type': 'audio/mpeg', 'content-encoding': 'gzip' });
    const gzip = createGzip();
    gzip.pipe(response);
    gzip.write(Buffer.alloc(1000, 1));
    gzip.flush();
  };

  it('closes a compressed body when the reader stops early or cancels it (else its connection is never released)', async () => {
    const closed: string[] = [];
    upstream = await startUpstream((request, body, response) => {
      response.on('close', () => closed.push(request.url ?? ''));
      compressedPiece(response);
    });
    const stopped = await streamCall(`${upstream.base}/stopped`);
    // A stop after one piece: a loop with a break would pass, stopping nothing, if no piece came.
    const reader = stopped.chunks[Symbol.asyncIterator]();
    const first = await reader.next();
    expect(first.done, 'a first piece').to.equal(false);
    expect(first.value.byteLength).to.equal(1000); // decompressed
    await reader.return?.();
    const cancelled = await streamCall(`${upstream.base}/cancelled`);
    await cancelled.cancel();
    await untilClosed(closed, 2);
    expect(closed.sort()).to.deep.equal(['/cancelled', '/stopped']);
  });

  it('leaves no error unheard when a compressed body is aborted or stalls before it is read (an uncaught one ends the process)', async () => {
    upstream = await startUpstream((request, body, response) => compressedPiece(response));
    const uncaught: unknown[] = [];
    const onUncaught = (error: unknown): void => {
      uncaught.push(error);
    };
    process.on('uncaughtException', onUncaught);
    try {
      const caller = new AbortController();
      const aborted = await streamCall(`${upstream.base}/aborted`, { signal: caller.signal });
      caller.abort(new Error('client went away'));
      const stalled = await streamCall(`${upstream.base}/stalled`, { timeoutMs: 50 });
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(uncaught).to.deep.equal([]);
      // Read afterwards, each fails as its cause says.
      expect((await failureOf(aborted.chunks)).code).to.equal('TTS_ERR_CANCELLED');
      expect((await failureOf(stalled.chunks)).code).to.equal('TTS_ERR_TIMEOUT');
    } finally {
      process.off('uncaughtException', onUncaught);
    }
  });
});
