import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { fixturesRoot } from '../../support/paths';
import { GatewayProcess } from './gateway-process';
import { CLI, listenOn, registeredKey } from './spawned-gateway-support';

describe('server stop: answers cut at the drain deadline (spawned gateway)', function () {
  this.timeout(60_000);
  let directory: string;
  let gateway: GatewayProcess | undefined;
  beforeEach(() => (directory = mkdtempSync(join(tmpdir(), 'tts-gateway-drain-'))));
  afterEach(() => {
    gateway?.kill();
    gateway = undefined;
    rmSync(directory, { recursive: true, force: true });
  });

  it('counts a stream the stop cut as cut by the gateway (503, streamError), not as a client that left (499, aborted)', async () => {
    // A stand-in OpenAI-shaped server that sends the first audio of a stream, then holds the rest.
    const mp3 = readFileSync(join(fixturesRoot, 'audio', 'speech-22050.mp3'));
    const held: ServerResponse[] = [];
    const upstream = createServer((request, response) => {
      request.resume();
      if (request.url !== '/v1/audio/speech') return void response.writeHead(404).end();
      response.writeHead(200, { 'Content-Type': 'audio/mpeg' });
      response.write(mp3.subarray(0, 8192));
      held.push(response);
    });
    const upstreamPort = await listenOn(upstream);
    try {
      // synthesis.timeout 1 s: the drain lasts 1 s plus the 5 s grace; the stream's later pieces have no such deadline.
      writeFileSync(
        join(directory, 'tts-gateway.config.yaml'),
        [
          'server: {host: 127.0.0.1, port: 0}',
          'database: {url: "sqlite::memory:"}',
          'logging: {format: json}',
          'synthesis: {timeout: 1s}',
          'providers:',
          '  - plugin: openai-compatible',
          `    options: {baseUrl: "http://127.0.0.1:${upstreamPort}", models: [tts-1], voices: [alloy]}`,
          '',
        ].join('\n'),
      );
      gateway = new GatewayProcess(process.execPath, [CLI, 'serve'], { cwd: directory });
      const port = await gateway.port();
      const apiKey = await registeredKey(port);
      const answer = await fetch(`http://127.0.0.1:${port}/api/v1/common/tts-stream`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-API-Key': apiKey, 'X-Request-Id': 'cut-by-stop' },
        body: JSON.stringify({ model: 'tts-1', voice: 'alloy', text: 'A long reading that outlasts the stop.', format: 'mp3' }),
      });
      expect(answer.status).to.equal(200);
      const reader = answer.body!.getReader();
      expect((await reader.read()).done).to.equal(false);

      gateway.child.kill('SIGTERM');
      await gateway.waitFor(/"message":"drain deadline passed/);
      // The client still reads: the gateway, not the client, ended the stream.
      const ended = await reader.read().then(
        () => 'ended',
        () => 'broken',
      );
      expect(ended).to.equal('broken');
      const [line] = await gateway.waitFor(/\{[^\n]*"message":"request"[^\n]*"requestId":"cut-by-stop"[^\n]*\}|\{[^\n]*"requestId":"cut-by-stop"[^\n]*"message":"request"[^\n]*\}/);
      const entry = JSON.parse(line) as Record<string, unknown>;
      expect(entry.aborted, line).to.equal(undefined);
      expect(entry.streamError, line).to.equal('TTS_ERR_UNAVAILABLE');
      expect(await gateway.exitCode()).to.equal(0);
    } finally {
      for (const response of held) response.destroy();
      upstream.closeAllConnections();
      upstream.close();
    }
  });
});
