import { expect } from 'chai';
import { faultGatewayForSuite } from './fault-gateway';
import { ScriptedUpstream, step } from './scripted-upstream';

/**
 * A provider that keeps failing while its circuit stays closed (switched off here; in production,
 * a partial outage whose failures are never enough in a row): its retries are bounded by a budget
 * shared by its requests, so the failing requests stop multiplying its load, and the retries come
 * back once it answers again.
 */
describe('e2e: the retry budget of a failing provider', function () {
  this.timeout(60_000);
  const upstream = ScriptedUpstream.forSuite();
  const subject = faultGatewayForSuite(upstream, { resilience: { retries: 2, backoff: '1ms', maxBackoff: '2ms', breaker: { failures: 0 } } });

  it('answers failures without retries once 50 attempts have failed, and retries again after successes', async () => {
    upstream.script();
    upstream.fallback = step.status(503);
    for (let index = 0; index < 20; index += 1) expect((await subject.synthesize({})).status).to.equal(502);
    // 100 tokens, one per failed attempt, retries while more than 50 are left: 17 requests made
    // 50 attempts (three each, the 17th two), the 3 after it one each. Without a budget: 60.
    expect(upstream.speechAttempts).to.equal(53);

    // The provider answers again: each success gives back a tenth of a token (47 left after the
    // 53 failures; 52 after 50 successes, so the next failure leaves 51 and is retried).
    upstream.script();
    upstream.fallback = step.audio;
    for (let index = 0; index < 50; index += 1) expect((await subject.synthesize({})).status).to.equal(200);
    upstream.script(step.status(503));
    expect((await subject.synthesize({})).status).to.equal(200);
    expect(upstream.speechAttempts).to.equal(2);
  });
});
