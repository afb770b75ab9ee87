import { expect } from 'chai';
import { expectErrorEnvelope } from '../server/support/test-app';
import { narratorGatewayForSuite } from './narrator-route-gateway';
import { ScriptedUpstream, step } from './scripted-upstream';

/**
 * A fallback route whose preferred provider (a real HTTP stand-in) fails, and whose next target
 * cannot take the request (the voice is the preferred provider's own): the client is told of
 * the provider's failure, which a retry may cure, not of a voice "not found".
 */
describe('e2e: a fallback route whose later target cannot take the request', function () {
  this.timeout(60_000);
  const upstream = ScriptedUpstream.forSuite();
  const subject = narratorGatewayForSuite(upstream, {
    resilience: { retries: 0, breaker: { failures: 0 } },
  });

  it("answers the preferred provider's 503 (with its Retry-After), not the fallback's 404 for a voice it lacks", async () => {
    upstream.script(step.status(503, '{"detail":"down for maintenance"}', { 'retry-after': '7' }));
    upstream.fallback = step.audio;
    // `alloy` is no name of the route's maps: it goes to each target as it is, and eSpeak has no such voice.
    const response = await subject.synthesize({ model: 'narrator', voice: 'alloy' });
    expect(response.status, JSON.stringify(response.body)).to.equal(502);
    expect(expectErrorEnvelope(response.body, 'TTS_ERR_UPSTREAM').details[0]).to.include({ upstreamStatus: 503 });
    expect(response.headers['retry-after']).to.equal('7');
    expect(upstream.speechAttempts).to.equal(1);
  });

  it('still serves a voice the next target has from it', async () => {
    upstream.script(step.status(503));
    const response = await subject.synthesize({ model: 'narrator', voice: 'default' });
    expect(response.status, JSON.stringify(response.body)).to.equal(200);
    expect(response.headers['x-tts-served-by']).to.equal('espeak-ng/en-us');
  });
});
