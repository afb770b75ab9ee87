import { expect } from 'chai';
import request from 'supertest';
import { expectErrorEnvelope } from '../server/support/test-app';
import { faultGatewayForSuite } from './fault-gateway';
import { ScriptedUpstream, step } from './scripted-upstream';

/**
 * A stream's start has one deadline, whichever target it falls back to: a retry that could only
 * start after it is not waited for. The fallback target's 429 is answered at once, with its
 * Retry-After, instead of a pause cut by the deadline into a 504.
 */
describe("e2e: a stream's retry is planned within the stream's own deadline", function () {
  this.timeout(30_000);
  const upstream = ScriptedUpstream.forSuite();
  const subject = faultGatewayForSuite(
    upstream,
    {
      synthesis: { timeout: '4s' },
      resilience: { retries: 0, breaker: { failures: 0 } },
      routes: [{ name: 'narrator', strategy: 'fallback', targets: [{ model: 'tts-1' }, { model: 'tts-2' }] }],
    },
    {},
    // The same stand-in under a second model, whose calls are retried (its address is known once it listens).
    [{ plugin: 'openai-compatible', id: 'backup', resilience: { retries: 1 }, options: { get baseUrl() { return upstream.url; }, models: ['tts-2'], voices: ['alloy'], formats: ['mp3'] } }],
  );

  // mp3: the provider's own stream; wav: the fallback target makes only mp3, so its first chunk is a call, its audio converted.
  for (const format of ['mp3', 'wav']) {
    it(`${format}: a fallback target's 429 whose Retry-After outlasts the time left is answered, not waited on into a 504`, async () => {
      // The preferred target fails after 2.5 s of the 4 s; the next asks for 2 s, which only 1.5 s remain for.
      const late = new Promise((resolve) => setTimeout(resolve, 2500));
      upstream.script(step.held(late, step.status(503)), step.status(429, '{"error":{"message":"Rate limit reached"}}', { 'retry-after': '2' }));
      upstream.fallback = step.audio;
      const response = await request(subject.gateway.app)
        .post('/api/v1/common/tts-stream')
        .set('X-API-Key', subject.apiKey)
        .send({ model: 'narrator', voice: 'alloy', text: 'Hello from the fault suite.', format });
      expect(response.status, JSON.stringify(response.body)).to.equal(429);
      expectErrorEnvelope(response.body, 'TTS_ERR_RATE_LIMITED');
      expect(response.headers['retry-after']).to.equal('2');
      expect(upstream.speechAttempts).to.equal(2);
    });
  }
});
