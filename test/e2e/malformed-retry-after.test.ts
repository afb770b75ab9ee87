import { expect } from 'chai';
import { expectErrorEnvelope } from '../server/support/test-app';
import { faultGatewayForSuite } from './fault-gateway';
import { ScriptedUpstream, step } from './scripted-upstream';

/** A provider (a real HTTP stand-in) whose Retry-After is malformed: ignored, never read as "now". */
describe('e2e: a malformed Retry-After from the provider', function () {
  this.timeout(60_000);
  const upstream = ScriptedUpstream.forSuite();
  const subject = faultGatewayForSuite(upstream, { resilience: { retries: 0, breaker: { failures: 0 } } });

  for (const header of ['-5', 'wait 12']) {
    it(`answers a 429 with "Retry-After: ${header}" with the default 1 s, not 0`, async () => {
      upstream.script(step.status(429, '{"error":{"message":"Rate limit reached"}}', { 'retry-after': header }));
      upstream.fallback = step.audio;
      const response = await subject.synthesize({});
      expect(response.status).to.equal(429);
      expectErrorEnvelope(response.body, 'TTS_ERR_RATE_LIMITED');
      expect(response.headers['retry-after']).to.equal('1');
    });
  }

  it('answers an HTTP-date in the obsolete asctime form as UTC seconds from now', async () => {
    const inAMinute = new Date(Date.now() + 60_000);
    const asctime = `${inAMinute.toUTCString().slice(0, 3)} ${inAMinute.toUTCString().slice(8, 11)} ${String(inAMinute.getUTCDate()).padStart(2, ' ')} ${inAMinute.toISOString().slice(11, 19)} ${inAMinute.getUTCFullYear()}`;
    upstream.script(step.status(429, '{"error":{"message":"Rate limit reached"}}', { 'retry-after': asctime }));
    const response = await subject.synthesize({});
    expect(response.status).to.equal(429);
    expect(Number(response.headers['retry-after'])).to.be.within(55, 61);
  });
});
