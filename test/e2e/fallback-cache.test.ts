import { expect } from 'chai';
import { narratorGatewayForSuite } from './narrator-route-gateway';
import { ScriptedUpstream, step } from './scripted-upstream';

const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

/** A fallback route in front of a failing provider, with the result cache on. */
describe('e2e: a fallback route and the result cache', function () {
  this.timeout(60_000);
  const upstream = ScriptedUpstream.forSuite();
  const subject = narratorGatewayForSuite(upstream, {
    resilience: { retries: 0, breaker: { failures: 1, halfOpenAfter: '2s' } },
    cache: { results: { enabled: true } },
  });
  const ask = async () => {
    const answer = await subject.synthesize({ model: 'narrator', voice: 'default' });
    expect(answer.status).to.equal(200);
    return [answer.headers['x-tts-cache'], answer.headers['x-tts-served-by']];
  };

  it("answers from the fallback's remembered audio only while the preferred provider is down, then from the preferred one's", async () => {
    // The embedded engine started first: its start-up must not eat the circuit's second.
    expect((await subject.synthesize({ model: 'espeak-ng', voice: 'en-us', text: 'Warm up.' })).status).to.equal(200);
    upstream.script(step.status(500));
    upstream.fallback = step.audio;
    expect(await ask()).to.deep.equal(['miss', 'espeak-ng/en-us']);
    // The preferred provider's circuit is open: the fallback's answer is what the route gives now.
    expect(await ask()).to.deep.equal(['hit', 'espeak-ng/en-us']);
    expect(upstream.speechAttempts).to.equal(1);
    // Its trial is due: the request tries it, and its answer replaces the fallback's.
    await sleep(2_100);
    expect(await ask()).to.deep.equal(['miss', 'tts-1/alloy']);
    expect(await ask()).to.deep.equal(['hit', 'tts-1/alloy']);
    expect(upstream.speechAttempts).to.equal(2);
  });
});
