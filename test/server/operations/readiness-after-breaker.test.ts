import { expect } from 'chai';
import request from 'supertest';
import { faultGatewayForSuite } from '../../e2e/fault-gateway';
import { ScriptedUpstream, step } from '../../e2e/scripted-upstream';

/**
 * A gateway whose one provider's circuit opened. Its readiness must come back once the circuit
 * lets a trial through: a load balancer sends no request to an unready replica, so a readiness
 * that waits for a request to move the circuit never comes back.
 */
describe('server GET /health/ready after a circuit opened', function () {
  this.timeout(30_000);
  const upstream = ScriptedUpstream.forSuite();
  const subject = faultGatewayForSuite(upstream, { resilience: { retries: 0, breaker: { failures: 2, halfOpenAfter: '200ms' } } });

  it('is 503 while the circuit refuses calls, and ready again once its trial is due, with no request needed', async () => {
    const ready = () => request(subject.gateway.app).get('/health/ready');
    expect((await ready()).status).to.equal(200);
    upstream.script(step.status(500), step.status(500));
    upstream.fallback = step.audio;
    expect((await subject.synthesize({})).status).to.equal(502);
    expect((await subject.synthesize({})).status).to.equal(502);
    const open = await ready();
    expect(open.status).to.equal(503);
    expect(open.body.providers[0]).to.include({ id: 'kokoro', status: 'unavailable' });
    // The provider is healthy again and the trial is due; the balancer, seeing 503, sends nothing.
    await new Promise((resolve) => setTimeout(resolve, 400));
    const later = await ready();
    expect(later.body.providers[0], 'the provider is still reported unavailable after its trial is due').to.include({ id: 'kokoro', status: 'ready' });
    expect(later.status).to.equal(200);
    // And then a request gets through (the trial), as the circuit promised.
    expect((await subject.synthesize({})).status).to.equal(200);
  });
});
