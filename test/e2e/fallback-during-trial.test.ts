import { expect } from 'chai';
import { eventually } from '../support/eventually';
import { narratorGatewayForSuite } from './narrator-route-gateway';
import { ScriptedUpstream, step } from './scripted-upstream';

/**
 * A fallback route whose preferred provider's circuit is half-open: while its one trial call is
 * under way, the route's other requests go to the next target at once, instead of waiting for
 * the trial (a hanging provider's trial holds them to their deadline: a 504, never a fallback).
 */
describe('e2e: a fallback route while its preferred provider is on trial', function () {
  this.timeout(30_000);
  const upstream = ScriptedUpstream.forSuite();
  const subject = narratorGatewayForSuite(upstream, {
    synthesis: { timeout: '3s' },
    resilience: { retries: 0, breaker: { failures: 1, halfOpenAfter: '300ms' } },
  });

  it('serves the next target while the trial hangs, without another call to the provider on trial', async () => {
    // The provider fails once (the circuit opens), then hangs on its trial.
    upstream.script(step.status(503), step.hang);
    const opened = await subject.synthesize({ model: 'narrator', voice: 'default' });
    expect(opened.status, JSON.stringify(opened.body)).to.equal(200);
    expect(opened.headers['x-tts-served-by']).to.equal('espeak-ng/en-us');
    await new Promise((resolve) => setTimeout(resolve, 400));
    // The trial is due: this request makes it, and hangs with the provider.
    const trial = subject.synthesize({ model: 'narrator', voice: 'default', text: 'The trial call.' }).then((response) => response);
    await eventually(() => {
      expect(upstream.speechAttempts).to.equal(2);
    });
    const during = await subject.synthesize({ model: 'narrator', voice: 'default', text: 'During the trial.' });
    expect(during.status, JSON.stringify(during.body)).to.equal(200);
    expect(during.headers['x-tts-served-by']).to.equal('espeak-ng/en-us');
    expect(upstream.speechAttempts).to.equal(2);
    // The trial itself ends at its deadline (a 504: a passed deadline falls back no more).
    expect((await trial).status).to.equal(504);
  });
});
