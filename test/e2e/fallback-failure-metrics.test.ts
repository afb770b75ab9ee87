import { expect } from 'chai';
import request from 'supertest';
import { UNKNOWN_LABEL } from '../../core';
import { sample } from '../support/metric-sample';
import { faultGatewayForSuite } from './fault-gateway';
import { ScriptedUpstream, step } from './scripted-upstream';

/**
 * A route's failed request is counted under a provider, not under "(unknown)": a route's provider
 * is chosen per request, so its name cannot say which one. One that fails before any target
 * served is counted under the provider whose failure it answers; a stream broken off midway under
 * the provider that served it (its first byte and a complete stream name that one too).
 * Counts add up over the suite: each test expects the sum so far.
 */
describe('e2e: the metrics of a fallback route that fails', function () {
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
  const body = { model: 'narrator', voice: 'alloy', text: 'Hello from the fault suite.', format: 'mp3' };
  const counted = async (outcome: string) => {
    const exposition = (await request(subject.gateway.app).get('/metrics').expect(200)).text;
    const lines = exposition.split('\n').filter((line) => line.startsWith('tts_gateway_synthesis_requests_total')).join('\n');
    const requests = (provider: string) => sample(exposition, 'tts_gateway_synthesis_requests_total', { model: 'narrator', provider, outcome });
    return { unknown: requests(UNKNOWN_LABEL), backup: requests('backup'), lines };
  };

  it('counts a stored synthesis whose every target failed under the provider whose failure it answers', async () => {
    upstream.script(step.status(503), step.status(503));
    const answer = await request(subject.gateway.app).post('/api/v1/common/tts-sync').set('X-API-Key', subject.apiKey).send(body);
    expect(answer.status).to.equal(502);
    expect(upstream.speechAttempts).to.equal(2);
    const { unknown, backup, lines } = await counted('upstream_error');
    expect(unknown, lines).to.equal(undefined);
    expect(backup, lines).to.equal(1);
  });

  it('counts a stream whose every target failed before its first byte the same way', async () => {
    upstream.script(step.status(503), step.status(503));
    const answer = await request(subject.gateway.app).post('/api/v1/common/tts-stream').set('X-API-Key', subject.apiKey).send(body);
    expect(answer.status).to.equal(502);
    const { unknown, backup, lines } = await counted('upstream_error');
    expect(unknown, lines).to.equal(undefined);
    expect(backup, lines).to.equal(2);
  });

  it('counts a stream the fallback target began and broke off under that provider', async () => {
    upstream.script(step.status(503), step.truncated);
    upstream.fallback = step.audio;
    const failure = await request(subject.gateway.app)
      .post('/api/v1/common/tts-stream')
      .set('X-API-Key', subject.apiKey)
      .send(body)
      .buffer(true)
      .then(
        () => undefined,
        (error: Error) => error,
      );
    expect(failure, 'the client should see the connection cut').to.be.instanceOf(Error);
    const { unknown, backup, lines } = await counted('upstream_error');
    expect(unknown, lines).to.equal(undefined);
    expect(backup, lines).to.equal(3);
  });
});
