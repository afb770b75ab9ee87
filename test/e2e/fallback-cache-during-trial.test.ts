import { expect } from 'chai';
import { eventually } from '../support/eventually';
import { narratorGatewayForSuite } from './narrator-route-gateway';
import { ScriptedUpstream, step } from './scripted-upstream';

/**
 * A fallback route whose preferred provider's circuit is half-open, with the result cache on:
 * while the trial is under way the route's requests are refused there at once (503
 * circuit_half_open) and fall to the next target, so the next target's remembered answer still
 * answers them, as it did while the circuit was open: not a new call for the same audio.
 */
describe('e2e: a fallback route remembered answer while its preferred provider is on trial', function () {
  this.timeout(30_000);
  const upstream = ScriptedUpstream.forSuite();
  const subject = narratorGatewayForSuite(upstream, {
    synthesis: { timeout: '3s' },
    resilience: { retries: 0, breaker: { failures: 1, halfOpenAfter: '300ms' } },
    cache: { results: { enabled: true } },
  });

  it("answers from the fallback target's remembered audio during the trial", async () => {
    // The embedded engine started first: its start-up must not eat the circuit's time.
    expect((await subject.synthesize({ model: 'espeak-ng', voice: 'en-us', text: 'Warm up.' })).status).to.equal(200);
    // The provider fails once (the circuit opens), then hangs on its trial.
    upstream.script(step.status(503), step.hang);
    const opened = await subject.synthesize({ model: 'narrator', voice: 'default' });
    expect(opened.status, JSON.stringify(opened.body)).to.equal(200);
    expect([opened.headers['x-tts-cache'], opened.headers['x-tts-served-by']]).to.deep.equal(['miss', 'espeak-ng/en-us']);
    await new Promise((resolve) => setTimeout(resolve, 400));
    // The trial is due: this request (another text, nothing remembered) makes it, and hangs with the provider.
    const trial = subject.synthesize({ model: 'narrator', voice: 'default', text: 'The trial call.' }).then((response) => response);
    await eventually(() => {
      expect(upstream.speechAttempts).to.equal(2);
    });
    const during = await subject.synthesize({ model: 'narrator', voice: 'default' });
    expect(during.status, JSON.stringify(during.body)).to.equal(200);
    expect([during.headers['x-tts-cache'], during.headers['x-tts-served-by']]).to.deep.equal(['hit', 'espeak-ng/en-us']);
    expect(upstream.speechAttempts).to.equal(2);
    expect((await trial).status).to.equal(504);
  });
});
