import { expect } from 'chai';
import request from 'supertest';
import { expectErrorEnvelope } from '../server/support/test-app';
import { faultGatewayForSuite } from './fault-gateway';
import { ScriptedUpstream, step } from './scripted-upstream';

/** Limits, usage and login on the composed gateway, in front of a real HTTP stand-in behind the `openai-compatible` plugin. */
describe('e2e: fault injection through openai-compatible', function () {
  this.timeout(60_000);
  const upstream = ScriptedUpstream.forSuite();

  describe('limits, quota and usage (3 requests per minute, 40 characters per day)', () => {
    const subject = faultGatewayForSuite(upstream, { limits: { requestsPerMinute: 3, charactersPerDay: 40 }, resilience: { retries: 1, backoff: '1ms', maxBackoff: '1ms' } });

    it('refuses a request over the daily characters before any upstream call, and reports usage totals', async () => {
      upstream.script(step.audio, step.status(503), step.status(503));
      upstream.fallback = step.audio;
      const first = await subject.synthesize({ text: 'Twenty characters!!!' });
      expect(first.status).to.equal(200);
      expect(first.headers['ratelimit-policy']).to.equal('"account-minute";q=3;w=60, "account-day";q=40;qu="characters";w=86400');
      const failed = await subject.synthesize({ text: 'Ten chars.' });
      expect(failed.status).to.equal(502);
      expect(upstream.speechAttempts).to.equal(3);
      // The failed request gave its characters back: 20 are left, 21 are refused without a call.
      const refused = await subject.synthesize({ text: 'Twenty-one characters' });
      expect(refused.status).to.equal(429);
      expect(refused.headers['ratelimit']).to.match(/"account-day";r=20;t=\d+/);
      expect(upstream.speechAttempts).to.equal(3);
      // Two requests counted in the minute (the refused one was not): a third fits, a fourth does not.
      expect((await subject.synthesize({ text: 'Short.' })).status).to.equal(200);
      const overMinute = await subject.synthesize({ text: 'Tiny' });
      expect(overMinute.status).to.equal(429);
      expect(expectErrorEnvelope(overMinute.body, 'TTS_ERR_RATE_LIMITED').details[0]).to.include({ policy: 'account-minute' });

      const usage = await request(subject.gateway.app).get('/api/v1/usage').set('X-API-Key', subject.apiKey).expect(200);
      const totals = usage.body.data.totals;
      expect(totals).to.include({ requests: 3, characters: 26, cacheHits: 0, errors: 1 });
      // Two answers of the same recorded utterance (about 0.65 s each).
      expect(totals.audioSeconds).to.be.within(1, 2);
      expect(usage.body.data.byModel.map((row: { model: string }) => row.model)).to.deep.equal(['tts-1']);
    });
  });

  describe('usage with the result cache on', () => {
    const subject = faultGatewayForSuite(upstream, { cache: { results: { enabled: true } } });

    it('counts a cache hit as a request with its characters and audio, without an upstream call', async () => {
      upstream.script();
      upstream.fallback = step.audio;
      const first = await subject.synthesize({ text: 'Cached twice.' });
      const second = await subject.synthesize({ text: 'Cached twice.' });
      expect([first.status, second.status]).to.deep.equal([200, 200]);
      expect(second.headers['x-tts-cache']).to.equal('hit');
      expect(upstream.speechAttempts).to.equal(1);
      const usage = await request(subject.gateway.app).get('/api/v1/usage').set('X-API-Key', subject.apiKey).expect(200);
      expect(usage.body.data.totals).to.include({ requests: 2, characters: 26, cacheHits: 1, errors: 0 });
      expect(usage.body.data.totals.audioSeconds).to.be.within(1, 2);
    });
  });

  describe('auth hardening on the composed gateway', () => {
    const subject = faultGatewayForSuite(upstream, { auth: { throttle: { failures: 3 } } });

    it('throttles wrong passwords and issues login keys that carry an expiry', async () => {
      const login = (password: string) => request(subject.gateway.app).post('/api/v1/auth/login').send({ email: 'faults@example.com', password });
      const loggedIn = await login('password-123').expect(200);
      expect(loggedIn.body.data.expiresAt - Date.now()).to.be.within(29 * 86_400_000, 30 * 86_400_000);
      for (let attempt = 0; attempt < 3; attempt += 1) await login('not-the-password').expect(401);
      const blocked = await login('password-123').expect(429);
      expect(Number(blocked.headers['retry-after'])).to.be.greaterThan(0);
    });
  });
});
