import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { fixturesRoot } from '../../support/paths';
import { GatewayProcess } from './gateway-process';
import { CLI, listenOn, registeredKey, writeOpenAiCompatibleConfig } from './spawned-gateway-support';

/** What one raw keep-alive connection received, as text, and when it closed. */
class RawConnection {
  received = '';
  readonly closed: Promise<void>;
  readonly socket: Socket;
  private waiters: (() => void)[] = [];

  constructor(port: number) {
    this.socket = connect(port, '127.0.0.1');
    this.socket.on('data', (chunk: Buffer) => {
      this.received += chunk.toString('latin1');
      for (const waiter of this.waiters.splice(0)) waiter();
    });
    this.socket.on('error', () => undefined);
    this.closed = new Promise((resolve) => this.socket.once('close', () => resolve()));
  }

  async until(pattern: RegExp): Promise<void> {
    while (!pattern.test(this.received)) {
      if (this.socket.destroyed) throw new Error(`the connection closed before ${pattern}; received:\n${this.received.slice(0, 400)}`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        this.socket.once('close', resolve);
      });
    }
  }
}

describe('server stop: a keep-alive connection reused during the drain', function () {
  this.timeout(60_000);
  let directory: string;
  let gateway: GatewayProcess | undefined;
  beforeEach(() => (directory = mkdtempSync(join(tmpdir(), 'tts-gateway-stop-'))));
  afterEach(() => {
    gateway?.kill();
    gateway = undefined;
    rmSync(directory, { recursive: true, force: true });
  });

  it('answers the next request of a connection whose stream was in flight at SIGTERM, closes it, and exits 0', async () => {
    // An OpenAI-shaped upstream that sends half of its audio, then waits for the test.
    const mp3 = readFileSync(join(fixturesRoot, 'audio', 'speech-22050.mp3'));
    let held: ServerResponse | undefined;
    let speechArrived: () => void = () => undefined;
    const arrived = new Promise<void>((resolve) => (speechArrived = resolve));
    const upstream = createServer((request, response) => {
      if (request.url === '/v1/audio/speech') {
        request.resume();
        response.writeHead(200, { 'Content-Type': 'audio/mpeg' });
        response.write(mp3.subarray(0, mp3.length / 2));
        held = response;
        speechArrived();
        return;
      }
      response.writeHead(404).end();
    });
    const upstreamPort = await listenOn(upstream);
    try {
      writeOpenAiCompatibleConfig(directory, upstreamPort);
      gateway = new GatewayProcess(process.execPath, [CLI, 'serve'], { cwd: directory });
      const port = await gateway.port();
      const apiKey = await registeredKey(port);

      // A keep-alive client (an SDK's agent) streams speech on one connection...
      const connection = new RawConnection(port);
      const body = JSON.stringify({ model: 'tts-1', voice: 'alloy', input: 'Still speaking when the stop comes.', response_format: 'mp3' });
      connection.socket.write(
        `POST /v1/audio/speech HTTP/1.1\r\nHost: gateway\r\nContent-Type: application/json\r\nAuthorization: Bearer ${apiKey}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      );
      await arrived;
      await connection.until(/^HTTP\/1\.1 200/);

      gateway.child.kill('SIGTERM');
      await gateway.waitFor(/"message":"shutting down"/);
      held?.end(mp3.subarray(mp3.length / 2));
      await connection.until(/\r\n0\r\n\r\n$/);

      // ...and, its stream over, sends its next request on the same connection.
      connection.socket.write('GET /health/live HTTP/1.1\r\nHost: gateway\r\n\r\n');
      await connection.closed;

      await gateway.exitCode();
      expect(gateway.stderr).to.equal('');
      expect(await gateway.exitCode()).to.equal(0);
      const answers = connection.received.match(/^HTTP\/1\.1 \d+/gm);
      expect(answers).to.deep.equal(['HTTP/1.1 200', 'HTTP/1.1 200']);
      const second = connection.received.slice(connection.received.lastIndexOf('HTTP/1.1 200'));
      expect(second).to.match(/\r\nConnection: close\r\n/i);
    } finally {
      upstream.closeAllConnections();
      upstream.close();
    }
  });
});
