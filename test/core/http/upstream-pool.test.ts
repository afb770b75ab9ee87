import { expect } from 'chai';
import { createServer as createSocketServer, type AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { createPooledFetch, type PooledFetch } from '../../../core';
import { startUpstream, type Handler } from './local-upstream';

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
});
