import { expect } from 'chai';
import type { Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { createGatewayServer } from '../../server/gateway-server';
import { recordUnreadRefusals } from '../../server/unread-refusals';
import { sample } from '../support/metric-sample';
import { recordingWinstonLogger } from '../support/recording-winston-logger';
import { testServerConfig } from './support/server-config';
import { buildTestApp, type TestApp } from './support/test-app';

/** Sends `request` raw and resolves with what came back once the server closed the connection. */
function sentRaw(port: number, request: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(request));
    let text = '';
    socket.on('data', (data) => (text += data.toString('latin1')));
    socket.on('error', () => undefined);
    socket.once('close', () => resolve(text));
  });
}

describe('server: requests Node refuses before the app reads them (431, malformed HTTP)', () => {
  let test: TestApp;
  let server: Server;
  let port: number;
  const lines: Record<string, unknown>[] = [];
  beforeEach(async () => {
    lines.length = 0;
    test = await buildTestApp();
    server = createGatewayServer(test.app, testServerConfig(), recordUnreadRefusals(recordingWinstonLogger(lines, 'info'), test.metrics));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterEach(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await test.close();
  });

  it('are logged with their request id and counted, as every other answer is, without their bytes', async () => {
    const large = await sentRaw(port, `GET /api/v1/tools/models?key=ttsg_secret HTTP/1.1\r\nHost: localhost\r\nX-Padding: ${'a'.repeat(20_000)}\r\n\r\n`);
    const notHttp = await sentRaw(port, 'GET /api/v1/tools/models HTTP/1.1\r\nHost localhost\r\n\r\n');
    const idOf = (answer: string) => /\r\nX-Request-Id: ([^\r]+)\r\n/.exec(answer)?.[1];
    const requests = lines.filter((line) => line.message === 'request');
    expect(requests.map((line) => [line.requestId, line.status])).to.deep.equal([
      [idOf(large), 431],
      [idOf(notHttp), 400],
    ]);
    expect(requests[0]).to.include({ route: '(unread)', code: 'TTS_ERR_HEADERS_TOO_LARGE' });
    expect(JSON.stringify(lines)).to.not.include('ttsg_secret');
    const exposition = (await test.metrics.exposition()).body;
    expect(sample(exposition, 'tts_gateway_http_requests_total', { method: '(unread)', route: '(unread)', status: '431' })).to.equal(1);
    expect(sample(exposition, 'tts_gateway_http_requests_total', { method: '(unread)', route: '(unread)', status: '400' })).to.equal(1);
  });
});
