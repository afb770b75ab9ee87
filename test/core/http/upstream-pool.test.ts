import { expect } from 'chai';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createSocketServer, type AddressInfo } from 'node:net';
import { createGzip, gzipSync } from 'node:zlib';
import { createPooledFetch, GatewayError, upstreamStream, type PooledFetch } from '../../../core';

type Handler = (request: IncomingMessage, body: string, response: ServerResponse) => void;

/** A local upstream that counts its connections and answers with `handler`. */
async function startUpstream(handler: Handler): Promise<{ base: string; connections: () => number; close(): Promise<void> }> {
  let connections = 0;
  const server: Server = createServer((request, response) => {
    const parts: Buffer[] = [];
    request.on('data', (part: Buffer) => parts.push(part));
    request.on('end', () => handler(request, Buffer.concat(parts).toString('utf8'), response));
  });
  server.on('connection', () => (connections += 1));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    connections: () => connections,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('core/http createPooledFetch', () => {
  let pooled: PooledFetch;
  let upstream: Awaited<ReturnType<typeof startUpstream>>;

  beforeEach(() => (pooled = createPooledFetch()));
  afterEach(async () => {
    await pooled.close();
    await upstream.close();
  });

  it('sends method, headers and body, and answers a Response with status, headers and body', async () => {
    upstream = await startUpstream((request, body, response) => {
      response.setHeader('set-cookie', ['a=1', 'b=2']);
      response.writeHead(207, { 'content-type': 'application/json', 'x-echo': String(request.headers['x-api-key']) });
      response.end(JSON.stringify({ method: request.method, url: request.url, body, type: request.headers['content-type'], accept: request.headers.accept }));
    });
    const answer = await pooled.fetch(`${upstream.base}/v1/audio/speech?x=1`, {
      method: 'POST',
      headers: new Headers({ 'content-type': 'application/json', 'x-api-key': 'k-1' }),
      body: '{"input":"hi"}',
    });
    expect(answer).to.be.instanceOf(Response);
    expect(answer.status).to.equal(207);
    expect(answer.ok).to.equal(true);
    expect(answer.headers.get('x-echo')).to.equal('k-1');
    expect(answer.headers.getSetCookie()).to.deep.equal(['a=1', 'b=2']);
    expect(await answer.json()).to.deep.equal({ method: 'POST', url: '/v1/audio/speech?x=1', body: '{"input":"hi"}', type: 'application/json', accept: '*/*' });
  });

  it('types a string body sent without a type as fetch does, and a byte body not', async () => {
    upstream = await startUpstream((request, body, response) => response.end(JSON.stringify({ type: request.headers['content-type'] ?? null, body })));
    for (const body of ['{"input":"hi"}', new Uint8Array([104, 105])]) {
      const init: RequestInit = { method: 'POST', headers: { 'x-api-key': 'k-1' }, body };
      const platform = await (await globalThis.fetch(`${upstream.base}/typed`, init)).json();
      expect(await (await pooled.fetch(`${upstream.base}/typed`, init)).json(), typeof body).to.deep.equal(platform);
    }
  });

  it('keeps connections alive across calls', async () => {
    upstream = await startUpstream((request, body, response) => response.end(new Uint8Array(20_000)));
    for (let call = 0; call < 20; call += 1) {
      const bytes = new Uint8Array(await (await pooled.fetch(`${upstream.base}/audio`, { method: 'POST', body: new Uint8Array([1, 2, 3]) })).arrayBuffer());
      expect(bytes.length).to.equal(20_000);
    }
    // A call may start while the previous one's connection is still being released: two at most.
    expect(upstream.connections()).to.be.at.most(2);
  });

  it('streams the body as it arrives', async () => {
    let sendRest: () => void = () => undefined;
    const restRequested = new Promise<void>((resolve) => (sendRest = resolve));
    upstream = await startUpstream((request, body, response) => {
      response.writeHead(200, { 'content-type': 'audio/mpeg' });
      response.write('first part ');
      void restRequested.then(() => response.end('and the rest'));
    });
    const answer = await pooled.fetch(`${upstream.base}/stream`);
    const reader = (answer.body as ReadableStream<Uint8Array>).getReader();
    const first = await reader.read();
    expect(Buffer.from(first.value as Uint8Array).toString()).to.equal('first part ');
    sendRest();
    let rest = '';
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) rest += Buffer.from(chunk.value).toString();
    expect(rest).to.equal('and the rest');
  });

  it('answers error statuses, empty 204s, redirects and compressed bodies as fetch does', async () => {
    upstream = await startUpstream((request, body, response) => {
      if (request.url === '/missing') response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"no"}');
      else if (request.url === '/empty') response.writeHead(204).end();
      else if (request.url === '/moved') response.writeHead(302, { location: '/compressed' }).end();
      else response.writeHead(200, { 'content-encoding': 'gzip', 'content-type': 'text/plain' }).end(gzipSync('unpacked'));
    });
    const missing = await pooled.fetch(`${upstream.base}/missing`);
    expect(missing.ok).to.equal(false);
    expect(missing.status).to.equal(404);
    expect(await missing.text()).to.equal('{"error":"no"}');
    const empty = await pooled.fetch(`${upstream.base}/empty`);
    expect(empty.status).to.equal(204);
    expect(empty.body).to.equal(null);
    const moved = await pooled.fetch(`${upstream.base}/moved`);
    expect(moved.status).to.equal(200);
    expect(await moved.text()).to.equal('unpacked');
  });

  it('reads header values of bytes beyond ASCII as fetch does (as latin1), instead of throwing', async () => {
    // Raw bytes on the wire: a UTF-8 euro sign, and a lone latin1 byte (not UTF-8).
    const head = Buffer.concat([
      Buffer.from('HTTP/1.1 200 OK\r\ncontent-type: audio/mpeg\r\ncontent-length: 2\r\nx-euro: '),
      Buffer.from('\u20ac', 'utf8'),
      Buffer.from('\r\nx-latin: caf'),
      Buffer.from([0xe9]),
      Buffer.from('\r\n\r\nok'),
    ]);
    const raw = createSocketServer((socket) => socket.once('data', () => socket.end(head)));
    await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
    upstream = { base: '', connections: () => 0, close: () => new Promise((resolve) => raw.close(() => resolve())) };
    const url = `http://127.0.0.1:${(raw.address() as AddressInfo).port}/`;
    const platform = await globalThis.fetch(url);
    const answer = await pooled.fetch(url);
    expect(answer.headers.get('x-euro')).to.equal(platform.headers.get('x-euro'));
    expect(answer.headers.get('x-latin')).to.be.a('string'); // undici decoded the byte as U+FFFD already: not fetch's value, but no throw
    expect(answer.headers.get('content-type')).to.equal('audio/mpeg');
    expect(await answer.text()).to.equal(await platform.text());
  });

  describe('redirects, followed as the platform fetch follows them', () => {
    let other: Awaited<ReturnType<typeof startUpstream>>;
    afterEach(() => other.close());

    /** What the final upstream saw of the followed call, through `call`. */
    async function followed(call: typeof fetch, path: string, init: RequestInit): Promise<unknown> {
      const answer = await call(`${upstream.base}${path}`, init);
      return { status: answer.status, seen: await answer.json() };
    }

    it('changes the method, body and headers as fetch does, and gives another origin no credentials', async () => {
      const echo: Handler = (request, body, response) =>
        response.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({ method: request.method, url: request.url, body, type: request.headers['content-type'] ?? null, authorization: request.headers.authorization ?? null }),
        );
      other = await startUpstream(echo);
      upstream = await startUpstream((request, body, response) => {
        const redirects: Record<string, [number, string]> = {
          '/found': [302, '/echo?from=found'],
          '/moved': [301, '/echo'],
          '/see-other': [303, 'echo'],
          '/temporary': [307, '/echo'],
          '/permanent': [308, `${other.base}/elsewhere`],
          '/away': [302, `${other.base}/elsewhere`],
        };
        const redirect = redirects[(request.url ?? '').split('?')[0]];
        if (redirect) response.writeHead(redirect[0], { location: redirect[1] }).end('a body to skip');
        else echo(request, body, response);
      });
      const post: RequestInit = { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer k' }, body: '{"a":1}' };
      const put: RequestInit = { ...post, method: 'PUT' };
      for (const [path, init] of [
        ['/found', post],
        ['/moved', post],
        ['/see-other', put],
        ['/temporary', post],
        ['/permanent', put],
        ['/away', { ...post, method: 'GET', body: undefined }],
      ] as const) {
        const expected = await followed(globalThis.fetch, path, init);
        expect(await followed(pooled.fetch, path, init), path).to.deep.equal(expected);
      }
      // What the platform's fetch does, spelled out: a POST redirected by 302 is a GET without a body or its type.
      expect(await followed(pooled.fetch, '/found', post)).to.deep.equal({
        status: 200,
        seen: { method: 'GET', url: '/echo?from=found', body: '', type: null, authorization: 'Bearer k' },
      });
      expect(await followed(pooled.fetch, '/permanent', put)).to.deep.include({ seen: { method: 'PUT', url: '/elsewhere', body: '{"a":1}', type: 'application/json', authorization: null } });
    });

    it('rejects a redirect loop and a location fetch cannot follow, as fetch does', async () => {
      other = await startUpstream(() => undefined);
      let loopCalls = 0;
      upstream = await startUpstream((request, body, response) => {
        if (request.url === '/loop') (loopCalls += 1), response.writeHead(302, { location: '/loop' }).end();
        else response.writeHead(302, { location: 'ftp://example.com/file' }).end();
      });
      const loopCallsOf: Record<string, number> = {};
      for (const path of ['/loop', '/ftp']) {
        const before = loopCalls;
        const platform = await globalThis.fetch(`${upstream.base}${path}`).catch((error: unknown) => error);
        const between = loopCalls;
        const ours = await pooled.fetch(`${upstream.base}${path}`).catch((error: unknown) => error);
        loopCallsOf[path] = between - before;
        loopCallsOf[`${path}, ours`] = loopCalls - between;
        expect(platform, path).to.be.instanceOf(TypeError);
        expect(ours, path).to.be.instanceOf(TypeError);
        expect((ours as Error).message).to.equal((platform as Error).message);
      }
      // The loop: 20 redirects followed, the 21st refused, by either.
      expect(loopCallsOf).to.deep.equal({ '/loop': 21, '/loop, ours': 21, '/ftp': 0, '/ftp, ours': 0 });
    });
  });

    it('rejects when its signal aborts, and when nothing listens', async () => {
    upstream = await startUpstream(() => undefined); // never answers
    const controller = new AbortController();
    const call = pooled.fetch(`${upstream.base}/hang`, { signal: controller.signal });
    controller.abort(new Error('client went away'));
    let aborted: unknown;
    await call.catch((error: unknown) => (aborted = error));
    expect(aborted).to.be.instanceOf(Error);
    let refused: unknown;
    await pooled.fetch('http://127.0.0.1:9/', {}).catch((error: unknown) => (refused = error));
    expect(refused).to.be.instanceOf(Error);
  });

  it('takes the platform fetch for what the plain path does not cover', async () => {
    upstream = await startUpstream((request, body, response) => response.end(`${request.method} ${body}`));
    const fromRequest = await pooled.fetch(new Request(`${upstream.base}/r`, { method: 'PUT', body: 'put body' }));
    expect(await fromRequest.text()).to.equal('PUT put body');
    const fromForm = await pooled.fetch(`${upstream.base}/f`, { method: 'POST', body: new URLSearchParams({ a: '1' }) });
    expect(await fromForm.text()).to.equal('POST a=1');
  });

  describe('read by upstreamStream (the Node stream is iterated, no web stream made)', () => {
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
      for (let wait = 0; closed.length < 2 && wait < 100; wait += 1) await new Promise((resolve) => setTimeout(resolve, 10));
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
      for await (const chunk of stopped.chunks) {
        expect(chunk.byteLength).to.equal(1000); // decompressed
        break;
      }
      const cancelled = await streamCall(`${upstream.base}/cancelled`);
      await cancelled.cancel();
      for (let wait = 0; closed.length < 2 && wait < 100; wait += 1) await new Promise((resolve) => setTimeout(resolve, 10));
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
});
