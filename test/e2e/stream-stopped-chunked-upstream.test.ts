import { request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { createGatewayServer } from '../../server/gateway-server';
import { startUpstream } from '../core/http/local-upstream';
import { testServerConfig } from '../server/support/server-config';
import { startFaultGateway, type FaultGateway } from './fault-gateway';

/** One piece of the stand-in's endless pcm: an even length, so every piece is whole samples. */
const PIECE = Buffer.alloc(64 * 1024, 1);

/** How a raw client saw a stream end. */
type Ending = 'complete' | 'broken off';

/**
 * A provider that streams its answer chunked (no Content-Length, as streaming TTS servers do)
 * and fast, longer than `synthesis.maxAudioDuration`, so the gateway lets go of the body while
 * it still arrives. That body was read through the provider's size bound, a web stream made
 * with Node's Readable.toWeb, which hands on data still buffered after its cancel: enqueueing it
 * threw ERR_INVALID_STATE outside any caller, an uncaught exception that ends the process.
 */
describe('e2e: a stream stopped while its chunked provider answer still arrives', function () {
  this.timeout(30_000);
  let upstream: Awaited<ReturnType<typeof startUpstream>>;
  let subject: FaultGateway;
  let server: Server;
  let upstreamAnswersClosed = 0;

  before(async () => {
    upstream = await startUpstream((request, body, response) => {
      response.writeHead(200, { 'content-type': 'application/octet-stream' });
      response.on('close', () => (upstreamAnswersClosed += 1));
      const pump = (): void => {
        while (!response.destroyed) if (!response.write(PIECE)) return void response.once('drain', pump);
      };
      pump();
    });
    subject = await startFaultGateway(upstream.base, { synthesis: { maxAudioDuration: '20s' } }, { formats: ['pcm'] });
    server = createGatewayServer(subject.gateway.app, testServerConfig());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await subject.dispose();
    await upstream.close();
  });

  const port = (): number => (server.address() as AddressInfo).port;

  /** Posts a speech request and reads it to its end, whichever way it ends. */
  function readToTheEnd(body: object): Promise<{ status?: number; ending: Ending; text: string }> {
    return new Promise((resolve) => {
      const client = httpRequest({ host: '127.0.0.1', port: port(), method: 'POST', path: '/v1/audio/speech', headers: { Authorization: `Bearer ${subject.apiKey}`, 'Content-Type': 'application/json' } });
      client.on('response', (response) => {
        let tail = '';
        response.on('data', (piece: Buffer) => (tail = (tail + piece.toString('latin1')).slice(-2000)));
        response.on('end', () => resolve({ status: response.statusCode, ending: 'complete', text: tail }));
        response.on('error', () => resolve({ status: response.statusCode, ending: 'broken off', text: tail }));
      });
      client.on('error', () => resolve({ ending: 'broken off', text: '' }));
      client.end(JSON.stringify(body));
    });
  }

  it('cuts the audio (SSE: ends with its error event), stops the provider call, and keeps serving', async () => {
    const speech = { model: 'tts-1', voice: 'alloy', input: 'Hello there.', response_format: 'pcm' };
    const rounds = 4;
    for (let round = 0; round < rounds; round += 1) {
      const audio = await readToTheEnd(speech);
      expect(audio).to.include({ status: 200, ending: 'broken off' });
      const events = await readToTheEnd({ ...speech, stream_format: 'sse' });
      expect(events).to.include({ status: 200, ending: 'complete' });
      expect(events.text).to.include('"type":"error"');
    }
    for (let wait = 0; upstreamAnswersClosed < 2 * rounds && wait < 200; wait += 1) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(upstreamAnswersClosed, 'each provider answer is stopped').to.equal(2 * rounds);
    const models = await fetch(`http://127.0.0.1:${port()}/v1/models`, { headers: { Authorization: `Bearer ${subject.apiKey}` } });
    expect(models.status).to.equal(200);
  });
});
