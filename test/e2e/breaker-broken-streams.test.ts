import { request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import request from 'supertest';
import { createGatewayServer } from '../../server/gateway-server';
import { testServerConfig } from '../server/support/server-config';
import { faultGatewayForSuite } from './fault-gateway';
import { ScriptedUpstream, step } from './scripted-upstream';

/**
 * A provider whose every stream breaks off after its first chunk opens its circuit, as one whose
 * calls fail does: a fallback route's requests then go to its next target. Each such stream's
 * attempt was a success once its first chunk came, so the circuit never opened and every
 * request kept going to the broken provider. Clients that leave midway say nothing of the provider.
 */

/** A gateway whose route `narrator` falls from the stand-in's `tts-1` to `backup`'s `tts-2`, the same stand-in. */
function brokenStreamSuite() {
  const upstream = ScriptedUpstream.forSuite();
  const subject = faultGatewayForSuite(
    upstream,
    {
      resilience: { retries: 0, breaker: { failures: 2, halfOpenAfter: '10m' } },
      routes: [{ name: 'narrator', strategy: 'fallback', targets: [{ model: 'tts-1' }, { model: 'tts-2' }] }],
    },
    {},
    // The same stand-in under a second model (its address is known once it listens).
    [{ plugin: 'openai-compatible', id: 'backup', options: { get baseUrl() { return upstream.url; }, models: ['tts-2'], voices: ['alloy'], formats: ['mp3'] } }],
  );
  const stream = () =>
    request(subject.gateway.app)
      .post('/api/v1/common/tts-stream')
      .set('X-API-Key', subject.apiKey)
      .send({ model: 'narrator', voice: 'alloy', text: 'Hello from the fault suite.', format: 'mp3' })
      .buffer(true)
      .then(
        (answer) => ({ status: answer.status, servedBy: answer.headers['x-tts-served-by'] as string | undefined, cut: false }),
        () => ({ status: 200, servedBy: undefined, cut: true }),
      );

  return { upstream, subject, stream };
}

describe('e2e: a provider whose streams break off midway opens its circuit', function () {
  this.timeout(30_000);
  const { upstream, stream } = brokenStreamSuite();

  it('sends the next request to the next target once `breaker.failures` streams in a row broke off', async () => {
    upstream.script(step.truncated, step.truncated);
    upstream.fallback = step.audio;
    for (let index = 0; index < 2; index += 1) expect((await stream()).cut, 'the client should see the connection cut').to.equal(true);
    const next = await stream();
    expect(next).to.include({ status: 200, cut: false });
    expect(next.servedBy).to.equal('tts-2/alloy');
    expect(upstream.speechAttempts, 'the broken provider is not asked a third time').to.equal(3);
  });
});

describe('e2e: clients that leave their streams midway do not open the circuit', function () {
  this.timeout(30_000);
  const { upstream, subject, stream } = brokenStreamSuite();

  it('keeps the provider serving after more such streams than `breaker.failures`', async () => {
    const server: Server = createGatewayServer(subject.gateway.app, testServerConfig());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      upstream.script();
      upstream.fallback = step.drip;
      const before = upstream.speechAttempts;
      const cutBefore = upstream.speechAnswersCut;
      for (let index = 0; index < 3; index += 1) await leaveAfterFirstBytes((server.address() as AddressInfo).port);
      // The gateway has let go of the three answers (each stream's end was seen) before the next request.
      while (upstream.speechAnswersCut - cutBefore < 3) await new Promise((resolve) => setTimeout(resolve, 10));
      upstream.fallback = step.audio;
      const next = await stream();
      expect(next).to.include({ status: 200, cut: false, servedBy: 'tts-1/alloy' });
      expect(upstream.speechAttempts - before).to.equal(4);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  /** A client that reads a stream's first bytes, then goes. */
  function leaveAfterFirstBytes(port: number): Promise<void> {
    return new Promise((resolve, reject) => {
      const client = httpRequest({ host: '127.0.0.1', port, method: 'POST', path: '/api/v1/common/tts-stream', headers: { 'X-API-Key': subject.apiKey, 'Content-Type': 'application/json' } });
      client.on('response', (response) => {
        if (response.statusCode !== 200) return reject(new Error(`stream answered ${response.statusCode}`));
        response.once('data', () => {
          client.destroy();
          resolve();
        });
      });
      client.on('error', () => undefined);
      client.end(JSON.stringify({ model: 'narrator', voice: 'alloy', text: 'Hello from the fault suite.', format: 'mp3' }));
    });
  }
});
