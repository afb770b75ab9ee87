import { expect } from 'chai';
import request from 'supertest';
import { UNKNOWN_LABEL } from '../../core';
import { sample } from '../support/metric-sample';
import { faultGatewayForSuite } from './fault-gateway';
import { ScriptedUpstream, step } from './scripted-upstream';

/**
 * A route's stream is counted under the provider that served it, however it ends: one that broke
 * off midway was counted under provider "(unknown)" (a route's provider is chosen per request),
 * while its first byte and a complete stream named the fallback target's.
 */
describe('e2e: the metrics of a fallback stream that breaks off', function () {
  this.timeout(30_000);
  const upstream = ScriptedUpstream.forSuite();
  const subject = faultGatewayForSuite(
    upstream,
    {
      metrics: { enabled: true },
      resilience: { retries: 0, breaker: { failures: 0 } },
      routes: [{ name: 'narrator', strategy: 'fallback', targets: [{ model: 'tts-1' }, { model: 'tts-2' }] }],
    },
    {},
    // The same stand-in under a second model (its address is known once it listens).
    [{ plugin: 'openai-compatible', id: 'backup', options: { get baseUrl() { return upstream.url; }, models: ['tts-2'], voices: ['alloy'], formats: ['mp3'] } }],
  );

  it('counts a stream the fallback target began and broke off under that provider', async () => {
    upstream.script(step.status(503), step.truncated);
    upstream.fallback = step.audio;
    const failure = await request(subject.gateway.app)
      .post('/api/v1/common/tts-stream')
      .set('X-API-Key', subject.apiKey)
      .send({ model: 'narrator', voice: 'alloy', text: 'Hello from the fault suite.', format: 'mp3' })
      .buffer(true)
      .then(
        () => undefined,
        (error: Error) => error,
      );
    expect(failure, 'the client should see the connection cut').to.be.instanceOf(Error);
    expect(upstream.speechAttempts).to.equal(2);
    const exposition = (await request(subject.gateway.app).get('/metrics').expect(200)).text;
    const requests = (provider: string) => sample(exposition, 'tts_gateway_synthesis_requests_total', { model: 'narrator', provider, outcome: 'upstream_error' });
    const counted = exposition.split('\n').filter((line) => line.startsWith('tts_gateway_synthesis_requests_total')).join('\n');
    expect(requests(UNKNOWN_LABEL), counted).to.equal(undefined);
    expect(requests('backup'), counted).to.equal(1);
  });
});
