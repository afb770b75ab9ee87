import { expect } from 'chai';
import { startFaultGateway, type FaultGateway } from '../e2e/fault-gateway';
import { freePort } from '../support/servers/free-port';
import { expectErrorEnvelope } from './support/test-app';

/**
 * README, Headers: "`Retry-After`: on 429 and 503 answers ..., in seconds: ... or the provider's
 * own `Retry-After` (or its retry hint in the body), else 1". A provider that cannot be reached
 * is 503 TTS_ERR_UNAVAILABLE ("the provider cannot be reached"), and the answer must say when to
 * retry; it carries no Retry-After at all.
 */
describe('server: a 503 for a provider that cannot be reached', function () {
  this.timeout(60_000);
  let subject: FaultGateway;
  before(async () => {
    // Nothing listens on this port: every call is refused.
    const closedPort = await freePort();
    subject = await startFaultGateway(`http://127.0.0.1:${closedPort}/v1`, { resilience: { retries: 0, breaker: { failures: 100 } } });
  });
  after(async () => subject?.dispose());

  it('carries Retry-After, as every 503 does', async () => {
    const answer = await subject.synthesize({});
    expect(answer.status).to.equal(503);
    expect(expectErrorEnvelope(answer.body, 'TTS_ERR_UNAVAILABLE').details[0]).to.include({ reason: 'upstream_unreachable' });
    expect(answer.headers['retry-after']).to.equal('1');
  });
});
