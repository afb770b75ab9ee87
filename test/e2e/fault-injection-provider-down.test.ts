import { expect } from 'chai';
import request from 'supertest';
import { expectErrorEnvelope } from '../server/support/test-app';
import { faultGatewayForSuite, startFaultGateway, type FaultGateway } from './fault-gateway';
import { ScriptedUpstream, step } from './scripted-upstream';

/** A provider that keeps failing or is down at start, from a real HTTP stand-in behind the `openai-compatible` plugin. */
describe('e2e: fault injection through openai-compatible', function () {
  this.timeout(60_000);
  const upstream = ScriptedUpstream.forSuite();

  describe('circuit breaker (2 failures, half-open after 300 ms, no retries)', () => {
    const subject = faultGatewayForSuite(upstream, { resilience: { retries: 0, breaker: { failures: 2, halfOpenAfter: '300ms' } } });

    it('opens after two failed requests, fails fast with 503 and Retry-After, then lets one trial through', async () => {
      upstream.script(step.status(500), step.status(500));
      upstream.fallback = step.audio;
      expect((await subject.synthesize({})).status).to.equal(502);
      expect((await subject.synthesize({})).status).to.equal(502);
      const open = await subject.synthesize({});
      expect(open.status).to.equal(503);
      expect(open.headers['retry-after']).to.equal('1');
      expect(expectErrorEnvelope(open.body, 'TTS_ERR_UNAVAILABLE').details[0]).to.include({ reason: 'circuit_open', provider: 'kokoro' });
      expect(upstream.speechAttempts).to.equal(2);
      await new Promise((resolve) => setTimeout(resolve, 350));
      const trial = await subject.synthesize({});
      expect(trial.status).to.equal(200);
      expect(upstream.speechAttempts).to.equal(3);
      expect((await subject.synthesize({})).status).to.equal(200);
      expect(upstream.speechAttempts).to.equal(4);
    });
  });

  describe('re-listing: a provider down at start', () => {
    let subject: FaultGateway;
    after(async () => {
      upstream.modelsAvailable = true;
      await subject?.dispose();
    });

    it('starts without its models, asks again in the background and serves them once it answers', async () => {
      upstream.modelsAvailable = false;
      upstream.modelListings = 0;
      subject = await startFaultGateway(
        upstream.url,
        { resilience: { relisting: { initialDelay: '20ms', maxDelay: '40ms' } }, routes: [{ name: 'narrator', targets: [{ model: 'tts-1', voices: { default: 'alloy' } }] }] },
        { models: undefined },
      );
      const models = () => request(subject.gateway.app).get('/api/v1/tools/models').set('X-API-Key', subject.apiKey);
      expect((await models()).body.data).to.deep.equal([]);
      expect((await subject.synthesize({ model: 'narrator', voice: 'default' })).status).to.equal(404);
      expect((await subject.synthesize({})).status).to.equal(404);
      // Still down for a while: the gateway keeps asking.
      for (let tries = 0; tries < 200 && upstream.modelListings < 3; tries += 1) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(upstream.modelListings).to.be.at.least(3);
      upstream.modelsAvailable = true;
      upstream.script();
      upstream.fallback = step.audio;
      let listed: string[] = [];
      for (let tries = 0; tries < 200 && !listed.includes('tts-1'); tries += 1) {
        listed = (await models()).body.data as string[];
        if (!listed.includes('tts-1')) await new Promise((resolve) => setTimeout(resolve, 10));
      }
      // Its route, without a served target until now, is in force too.
      expect(listed).to.deep.equal(['tts-1', 'narrator']);
      expect((await subject.synthesize({})).status).to.equal(200);
      const routed = await subject.synthesize({ model: 'narrator', voice: 'default' });
      expect(routed.status).to.equal(200);
      expect(routed.headers['x-tts-served-by']).to.equal('tts-1/alloy');
    });
  });
});
