import { expect } from 'chai';
import type { Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import request from 'supertest';
import { createGatewayServer } from '../../../server/gateway-server';
import { eventually } from '../../support/eventually';
import { sample } from '../../support/metric-sample';
import { failingAfterFirstPiece, postStreamToItsEnd } from '../support/failing-stream';
import { testServerConfig } from '../support/server-config';
import { buildTestApp, type TestApp } from '../support/test-app';

/** Sends `raw` and resolves with what came back once the server closed the connection. */
function sentRaw(port: number, raw: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(raw));
    let received = '';
    socket.on('data', (data) => (received += data.toString('latin1')));
    socket.on('error', () => undefined);
    socket.once('close', () => resolve(received));
  });
}

const accessLines = (testApp: TestApp) => testApp.logs.filter((entry) => entry.message === 'request');

/** The access log and /metrics tell how an answer that did not complete ended, as the client saw it. */
describe('server access log and metrics: answers that did not complete', function () {
  this.timeout(20_000);
  let testApp: TestApp;
  afterEach(() => testApp.close());

  it('a request whose body came too slowly is the 408 the client got, not a client that left (200 aborted, 499)', async () => {
    testApp = await buildTestApp();
    const server: Server = createGatewayServer(testApp.app, testServerConfig({ headersTimeoutMs: 300, requestTimeoutMs: 600, keepAliveTimeoutMs: 300 }));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const port = (server.address() as AddressInfo).port;
      const answer = await sentRaw(port, 'POST /api/v1/auth/login HTTP/1.1\r\nHost: localhost\r\nX-Request-Id: slow-1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"email":');
      expect(answer).to.match(/^HTTP\/1\.1 408 /);
      await eventually(() => void expect(accessLines(testApp)).to.have.length(1));
      const [line] = accessLines(testApp);
      expect(line).to.include({ requestId: 'slow-1', route: '/api/v1/auth/login', status: 408 });
      expect(line).to.not.have.property('aborted');
      const exposition = (await testApp.metrics.exposition()).body;
      const route = { method: 'POST', route: '/api/v1/auth/login' };
      expect(sample(exposition, 'tts_gateway_http_requests_total', { ...route, status: '408' })).to.equal(1);
      expect(sample(exposition, 'tts_gateway_http_requests_total', { ...route, status: '499' })).to.equal(undefined);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("a stream the gateway cut because its synthesis failed is not logged as aborted (the client did not leave)", async () => {
    testApp = await buildTestApp({ stream: failingAfterFirstPiece });
    const { apiKey } = await testApp.register();
    await postStreamToItsEnd(testApp.app, apiKey);
    const streamLine = () => accessLines(testApp).find((entry) => entry.route === '/api/v1/common/tts-stream');
    await eventually(() => void expect(streamLine()).to.not.equal(undefined));
    expect(streamLine()).to.include({ streamError: 'TTS_ERR_UPSTREAM' });
    expect(streamLine()).to.not.have.property('aborted');
  });
});
