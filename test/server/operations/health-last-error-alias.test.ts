import { expect } from 'chai';
import request from 'supertest';
import { faultGatewayForSuite } from '../../e2e/fault-gateway';
import { ScriptedUpstream, step } from '../../e2e/scripted-upstream';

/** /health/ready shows each provider's last upstream failure: also when the request named an alias of its model. */
describe('server GET /health/ready: last error of a provider reached through an alias', function () {
  this.timeout(30_000);
  const upstream = ScriptedUpstream.forSuite();
  const subject = faultGatewayForSuite(upstream, { resilience: { retries: 0 }, aliases: [{ model: 'speech', target: 'tts-1', voices: { narrator: 'alloy' } }] });

  it('records the failure against the provider that failed', async () => {
    upstream.script(step.status(500));
    const failed = await subject.synthesize({ model: 'speech', voice: 'narrator' });
    expect(failed.status).to.equal(502);
    const ready = await request(subject.gateway.app).get('/health/ready').expect(200);
    expect(ready.body.providers[0].id).to.equal('kokoro');
    expect(ready.body.providers[0].lastError, 'lastError of kokoro').to.match(/^TTS_ERR_UPSTREAM: /);
  });
});
