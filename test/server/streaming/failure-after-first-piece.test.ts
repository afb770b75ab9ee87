import { request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { createGatewayServer } from '../../../server/gateway-server';
import { buildTestApp, type TestApp } from '../support/test-app';
import { failingAfterFirstPiece, FIRST_PIECE } from '../support/failing-stream';
import { testServerConfig } from '../support/server-config';

/** What a raw client saw of a stream: its status and the bytes that came, and how the body ended. */
interface SeenStream {
  readonly status: number | undefined;
  readonly bytes: Buffer;
  readonly ending: 'complete' | 'broken off' | 'no answer';
}

/**
 * A stream whose synthesis fails right after its first piece (in the same pass of the event
 * loop, before the held write went out): the client must get the 200 and the bytes made, then a
 * broken transfer, as README says of a failure after the first bytes; not an empty answer.
 */
describe('server streams: a failure right after the first piece', function () {
  this.timeout(10_000);
  let testApp: TestApp;
  let server: Server;

  before(async () => {
    testApp = await buildTestApp({ stream: failingAfterFirstPiece });
    server = createGatewayServer(testApp.app, testServerConfig());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await testApp.close();
  });

  function streamOnce(apiKey: string): Promise<SeenStream> {
    return new Promise((resolve) => {
      const chunks: Buffer[] = [];
      let answer: IncomingMessage | undefined;
      const client = httpRequest({
        host: '127.0.0.1',
        port: (server.address() as AddressInfo).port,
        method: 'POST',
        path: '/api/v1/common/tts-stream',
        headers: { 'X-API-Key': apiKey, 'Content-Type': 'application/json' },
      });
      const seen = (ending: SeenStream['ending']): void => resolve({ status: answer?.statusCode, bytes: Buffer.concat(chunks), ending });
      client.on('response', (response) => {
        answer = response;
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => seen('complete'));
        response.on('aborted', () => seen('broken off'));
        response.on('error', () => seen('broken off'));
      });
      client.on('error', () => seen(answer ? 'broken off' : 'no answer'));
      client.end(JSON.stringify({ model: 'espeak-ng', voice: 'en-us', text: 'Hello there' }));
    });
  }

  it('sends the 200 and the first piece, then breaks the transfer off', async () => {
    const { apiKey } = await testApp.register();
    const seen = await streamOnce(apiKey);
    expect(seen.ending).to.equal('broken off');
    expect(seen.status).to.equal(200);
    expect(seen.bytes.equals(FIRST_PIECE)).to.equal(true);
  });
});
