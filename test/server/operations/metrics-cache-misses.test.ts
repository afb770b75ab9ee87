import { expect } from 'chai';
import request from 'supertest';
import { faultGatewayForSuite } from '../../e2e/fault-gateway';
import { ScriptedUpstream, step } from '../../e2e/scripted-upstream';
import { sample } from '../../support/metric-sample';

/** The result cache's counters during a provider outage: each request looked the cache up and found nothing. */
describe('server GET /metrics: result-cache lookups of requests that then failed', function () {
  this.timeout(30_000);
  const upstream = ScriptedUpstream.forSuite();
  const subject = faultGatewayForSuite(upstream, { resilience: { retries: 0, breaker: { failures: 0 } }, cache: { results: { enabled: true } } });

  it('counts a miss for each lookup that found nothing, whether or not the provider then answered', async () => {
    upstream.fallback = step.audio;
    expect((await subject.synthesize({ text: 'Cached once.' })).status).to.equal(200);
    expect((await subject.synthesize({ text: 'Cached once.' })).headers['x-tts-cache']).to.equal('hit');
    upstream.fallback = step.status(500);
    for (const text of ['Not cached one.', 'Not cached two.', 'Not cached three.']) expect((await subject.synthesize({ text })).status).to.equal(502);
    const exposition = (await request(subject.gateway.app).get('/metrics').expect(200)).text;
    expect(sample(exposition, 'tts_gateway_cache_hits_total', { cache: 'results' })).to.equal(1);
    // 1 hit out of 5 lookups; without the failed ones the hit ratio reads 50%, not 20%.
    expect(sample(exposition, 'tts_gateway_cache_misses_total', { cache: 'results' }), 'misses').to.equal(4);
  });
});
