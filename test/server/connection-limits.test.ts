import { expect } from 'chai';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { createGatewayServer } from '../../server/gateway-server';
import { testServerConfig } from './support/server-config';
import { buildTestApp, type TestApp } from './support/test-app';

const LIMITS = testServerConfig({ headersTimeoutMs: 300, requestTimeoutMs: 600, keepAliveTimeoutMs: 300 });

/** A raw client socket: what the server sent, and a promise of its closing. */
interface RawClient {
  readonly socket: Socket;
  received(): string;
  readonly closed: Promise<void>;
}

function rawClient(port: number): RawClient {
  const socket = connect(port, '127.0.0.1');
  let text = '';
  socket.on('data', (data) => (text += data.toString('latin1')));
  socket.on('error', () => undefined);
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  return { socket, received: () => text, closed };
}

/** The JSON body of a raw answer. */
function bodyOf(answer: string): unknown {
  return JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));
}

/** Sends `request` raw and waits for the server to close the connection. */
async function sentRaw(port: number, request: string): Promise<string> {
  const client = rawClient(port);
  await connected(client);
  client.socket.write(request);
  await client.closed;
  return client.received();
}

function connected(client: RawClient): Promise<void> {
  return new Promise((resolve) => {
    if (!client.socket.connecting) resolve();
    else client.socket.once('connect', () => resolve());
  });
}

/** A raw answer that refuses the body as too large and closes the connection. */
function expectClosingTooLarge(answer: string): void {
  expect(answer).to.match(/^HTTP\/1\.1 413 /);
  expect(answer).to.match(/\r\nConnection: close\r\n/i);
  const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as { error: { code: string } };
  expect(body.error.code).to.equal('TTS_ERR_PAYLOAD_TOO_LARGE');
}

describe('server/gateway-server connection limits', function () {
  this.timeout(30_000);
  let test: TestApp;
  let server: Server;
  let port: number;
  beforeEach(async () => {
    test = await buildTestApp({ bodyLimitBytes: LIMITS.bodyLimitBytes });
    server = createGatewayServer(test.app, LIMITS);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterEach(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await test.close();
  });

  const modelsStatus = async (): Promise<number> => (await fetch(`http://127.0.0.1:${port}/api/v1/tools/models`)).status;

  it('holds at most maxConnections of a flood of idle sockets, and serves new clients once they are cut off', async () => {
    const flood = Array.from({ length: 300 }, () => rawClient(port));
    await Promise.all(flood.map(connected));
    const open = await new Promise<number>((resolve, reject) => server.getConnections((error, count) => (error ? reject(error) : resolve(count))));
    expect(open).to.be.at.most(LIMITS.maxConnections);
    // Every idle socket is either refused at once or timed out (408) by the server.
    await Promise.all(flood.map((client) => client.closed));
    const timedOut = flood.filter((client) => client.received().startsWith('HTTP/1.1 408'));
    expect(timedOut.length).to.be.within(1, LIMITS.maxConnections);
    expect(await modelsStatus()).to.equal(401);
  });

  it('cuts off a client that sends its body too slowly (408), and keeps serving', async () => {
    const slow = rawClient(port);
    await connected(slow);
    slow.socket.write('POST /api/v1/auth/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"email":');
    await slow.closed;
    expect(slow.received()).to.match(/^HTTP\/1\.1 408 /);
    expect(slow.received()).to.match(/\r\nConnection: close\r\n/);
    expect(bodyOf(slow.received())).to.deep.include({ success: false, data: null, error: { code: 'TTS_ERR_REQUEST_TIMEOUT', details: [] } });
    expect(await modelsStatus()).to.equal(401);
  });

  it('answers a client too slow with a /v1 body (408) in OpenAI\'s error shape', async () => {
    const { apiKey } = await test.register();
    const answer = await sentRaw(port, `POST /v1/audio/speech HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${apiKey}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"model":`);
    expect(answer).to.match(/^HTTP\/1\.1 408 /);
    expect(bodyOf(answer)).to.deep.equal({ error: { message: 'The request did not arrive within the time the gateway allows', type: 'invalid_request_error', param: null, code: null } });
  });

  it('gives these answers a request id, as every answer has: the one the app gave a request in flight, else a new one', async () => {
    const { apiKey } = await test.register();
    const slow = await sentRaw(port, `POST /v1/audio/speech HTTP/1.1\r\nHost: localhost\r\nX-Request-Id: slow-body-1\r\nAuthorization: Bearer ${apiKey}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"model":`);
    expect(slow).to.match(/^HTTP\/1\.1 408 [^]*\r\nX-Request-Id: slow-body-1\r\n/);
    const large = await sentRaw(port, `GET /v1/models HTTP/1.1\r\nHost: localhost\r\nX-Padding: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(large).to.match(/^HTTP\/1\.1 431 [^]*\r\nX-Request-Id: [0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\r\n/);
    const notHttp = await sentRaw(port, 'GET /api/v1/tools/models HTTP/1.1\r\nHost localhost\r\n\r\n');
    expect(notHttp).to.match(/^HTTP\/1\.1 400 [^]*\r\nX-Request-Id: [0-9a-f-]{36}\r\n/);
  });

  it('answers headers over the size limit with 431 and a coded error in the API\'s shape, and keeps serving', async () => {
    const padding = `X-Padding: ${'a'.repeat(20_000)}\r\n`;
    const spec = await sentRaw(port, `GET /api/v1/tools/models HTTP/1.1\r\nHost: localhost\r\n${padding}\r\n`);
    expect(spec).to.match(/^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/);
    expect(spec).to.match(/\r\nContent-Type: application\/json; charset=utf-8\r\n/);
    const envelope = bodyOf(spec) as { success: boolean; message: string; error: { code: string } };
    expect(envelope.success).to.equal(false);
    expect(envelope.error.code).to.equal('TTS_ERR_HEADERS_TOO_LARGE');
    expect(envelope.message).to.equal('The request headers are larger than the limit of 16384 bytes');
    const openAi = await sentRaw(port, `POST /v1/audio/speech HTTP/1.1\r\nHost: localhost\r\n${padding}\r\n`);
    expect(openAi).to.match(/^HTTP\/1\.1 431 /);
    expect((bodyOf(openAi) as { error: { type: string; message: string } }).error).to.deep.include({ type: 'invalid_request_error', message: envelope.message });
    expect(await modelsStatus()).to.equal(401);
  });

  it('answers a request that is not HTTP with 400 and the envelope, and keeps serving', async () => {
    const answer = await sentRaw(port, 'GET /api/v1/tools/models HTTP/1.1\r\nHost localhost\r\n\r\n');
    expect(answer).to.match(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(bodyOf(answer)).to.deep.include({ success: false, data: null, error: { code: 'TTS_ERR_VALIDATION', details: [] } });
    expect((bodyOf(answer) as { message: string }).message).to.equal('The request is not valid HTTP/1.1');
    expect(answer).to.not.match(/\n\s+at /);
    expect(await modelsStatus()).to.equal(401);
  });

  it('refuses a declared Content-Length over bodyLimit with 413 before the body is read, and closes the connection', async () => {
    const client = rawClient(port);
    await connected(client);
    client.socket.write('POST /api/v1/auth/register HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 300000000\r\n\r\n');
    await client.closed;
    expectClosingTooLarge(client.received());
  });

  it('refuses a chunked body with 413 as soon as it passes bodyLimit, without waiting for its end, and closes the connection', async () => {
    const client = rawClient(port);
    await connected(client);
    client.socket.write('POST /api/v1/auth/register HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n');
    const piece = `{"email":"${'a'.repeat(LIMITS.bodyLimitBytes + 100)}`;
    // The body goes on (no last chunk): a 413 must come anyway, before the request timeout's 408.
    client.socket.write(`${piece.length.toString(16)}\r\n${piece}\r\n`);
    await client.closed;
    expectClosingTooLarge(client.received());
    expect(await modelsStatus()).to.equal(401);
  });

  it('answers 413 instead of 100 Continue to a client that asks before sending a body too large', async () => {
    const client = rawClient(port);
    await connected(client);
    client.socket.write('POST /api/v1/auth/register HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 5000\r\nExpect: 100-continue\r\n\r\n');
    await client.closed;
    expect(client.received()).to.match(/^HTTP\/1\.1 413 /);
    expect(client.received()).to.not.include('100 Continue');
  });

  it('still gives the go-ahead to a body within the limit', async () => {
    const client = rawClient(port);
    await connected(client);
    const body = JSON.stringify({ email: 'continue@example.com', password: 'password-123' });
    client.socket.write(`POST /api/v1/auth/register HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n`);
    await new Promise<void>((resolve) => {
      const check = (): void => {
        if (client.received().includes('100 Continue')) {
          client.socket.off('data', check);
          resolve();
        }
      };
      client.socket.on('data', check);
      check();
    });
    client.socket.write(body);
    await client.closed;
    expect(client.received()).to.match(/HTTP\/1\.1 200 /);
  });

  it("holds each answer's bytes to the end of the event loop's pass: still being written when the response ends", async () => {
    const pendingAtEnd: number[] = [];
    server.prependListener('request', (request: IncomingMessage, response: ServerResponse) =>
      response.once('prefinish', () => pendingAtEnd.push(request.socket.writableLength)),
    );
    expect(await modelsStatus()).to.equal(401);
    expect(pendingAtEnd).to.have.length(1);
    expect(pendingAtEnd[0]).to.be.above(0);
  });
});
