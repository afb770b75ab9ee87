import { expect } from 'chai';
import { narratorGatewayForSuite } from './narrator-route-gateway';
import { ScriptedUpstream, step } from './scripted-upstream';

/**
 * A fallback route whose preferred provider asks for a wait (Retry-After) longer than the
 * operator's maxBackoff: the next target answers now, instead of the request sleeping out the
 * provider's wait (well within the deadline) to try the same provider again.
 */
describe('e2e: a fallback route whose preferred provider asks for a long wait', function () {
  this.timeout(30_000);
  const upstream = ScriptedUpstream.forSuite();
  const subject = narratorGatewayForSuite(upstream, {
    synthesis: { timeout: '20s' },
    resilience: { retries: 2, backoff: '1ms', maxBackoff: '100ms', breaker: { failures: 0 } },
  });

  it('falls back at once on a 429 whose Retry-After is past maxBackoff, with no second call to the provider', async () => {
    upstream.script(step.status(429, '{"error":{"message":"Rate limit reached"}}', { 'retry-after': '3' }));
    upstream.fallback = step.audio;
    const response = await subject.synthesize({ model: 'narrator', voice: 'default' });
    expect(response.status, JSON.stringify(response.body)).to.equal(200);
    expect(response.headers['x-tts-served-by']).to.equal('espeak-ng/en-us');
    expect(upstream.speechAttempts).to.equal(1);
  });

  it('still retries the preferred provider after a short backoff', async () => {
    upstream.script(step.status(503));
    upstream.fallback = step.audio;
    const response = await subject.synthesize({ model: 'narrator', voice: 'default' });
    expect(response.status, JSON.stringify(response.body)).to.equal(200);
    expect(response.headers['x-tts-served-by']).to.equal('tts-1/alloy');
    expect(upstream.speechAttempts).to.equal(2);
  });

  it('waits out the Retry-After for a model without a fallback (the provider is its only way)', async () => {
    upstream.script(step.status(429, '{"error":{"message":"Rate limit reached"}}', { 'retry-after': '1' }));
    upstream.fallback = step.audio;
    const response = await subject.synthesize({ model: 'tts-1', voice: 'alloy' });
    expect(response.status, JSON.stringify(response.body)).to.equal(200);
    expect(upstream.speechAttempts).to.equal(2);
  });
});
