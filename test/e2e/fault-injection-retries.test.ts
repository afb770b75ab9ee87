import { expect } from 'chai';
import { sniffAudioFormat } from '../../core';
import { expectErrorEnvelope } from '../server/support/test-app';
import { faultGatewayForSuite } from './fault-gateway';
import { ScriptedUpstream, step, type SpeechStep } from './scripted-upstream';

/**
 * The reliability layer against a real HTTP stand-in behind the `openai-compatible` plugin.
 * Deadlines are shown by attempt counts and by which error answers, never by measuring time:
 * a deadline too short for a retry means one attempt; a provider timeout shorter than the
 * deadline means every retry happens.
 */
describe('e2e: fault injection through openai-compatible', function () {
  this.timeout(60_000);
  const upstream = ScriptedUpstream.forSuite();

  describe('retries within the deadline (provider timeout 300 ms, deadline 5 s, 2 retries)', () => {
    const subject = faultGatewayForSuite(upstream, { synthesis: { timeout: '5s' }, resilience: { retries: 2, backoff: '1ms', maxBackoff: '5ms', breaker: { failures: 100 } } }, { timeoutMs: 300 });

    const cases: [name: string, steps: SpeechStep[], status: number, code: string | undefined, attempts: number][] = [
      ['a 500 then audio', [step.status(500, '{"detail":"internal error"}'), step.audio], 200, undefined, 2],
      ['a 503 three times', [step.status(503), step.status(503), step.status(503)], 502, 'TTS_ERR_UPSTREAM', 3],
      ['a connection reset then audio', [step.reset, step.audio], 200, undefined, 2],
      ['a connection reset three times', [step.reset, step.reset, step.reset], 503, 'TTS_ERR_UNAVAILABLE', 3],
      ['a 400', [step.status(400, '{"detail":"voice not found"}'), step.audio], 502, 'TTS_ERR_UPSTREAM', 1],
      [
        'a billing stop (429 insufficient_quota)',
        [step.status(429, '{"error":{"message":"You exceeded your current quota","type":"insufficient_quota","code":"insufficient_quota"}}', { 'retry-after': '1' }), step.audio],
        502,
        'TTS_ERR_UPSTREAM_QUOTA',
        1,
      ],
      ['JSON instead of audio, then audio', [step.json, step.audio], 200, undefined, 2],
      ['zero bytes three times', [step.empty, step.empty, step.empty], 502, 'TTS_ERR_UPSTREAM_BAD_RESPONSE', 3],
      ['a truncated body then audio', [step.truncated, step.audio], 200, undefined, 2],
      ['a hang (each attempt cut by the provider timeout)', [step.hang, step.hang, step.hang], 504, 'TTS_ERR_TIMEOUT', 3],
      ['a slow drip then audio', [step.drip, step.audio], 200, undefined, 2],
      ['bytes of no known audio format, then audio', [step.noise, step.audio], 200, undefined, 2],
      ['bytes of no known audio format three times', [step.noise, step.noise, step.noise], 502, 'TTS_ERR_UPSTREAM_BAD_RESPONSE', 3],
    ];
    for (const [name, steps, status, code, attempts] of cases) {
      it(`${name}: ${status} after ${attempts} upstream attempt(s)${status === 200 ? '' : ', nothing stored'}`, async () => {
        upstream.script(...steps);
        upstream.fallback = step.audio;
        const before = subject.storedFiles().length;
        const response = await subject.synthesize({ format: 'mp3' });
        expect(response.status, JSON.stringify(response.body)).to.equal(status);
        expect(upstream.speechAttempts).to.equal(attempts);
        if (code) {
          expectErrorEnvelope(response.body, code);
          expect(subject.storedFiles()).to.have.length(before);
        } else {
          expect(subject.storedFiles()).to.have.length(before + 1);
        }
      });
    }

    it('a 400 carries the upstream status in the details, and is never retried', async () => {
      upstream.script(step.status(400, '{"detail":"input too long"}'));
      const response = await subject.synthesize({});
      expect(expectErrorEnvelope(response.body, 'TTS_ERR_UPSTREAM').details[0]).to.include({ upstreamStatus: 400 });
      expect(upstream.speechAttempts).to.equal(1);
    });

    it('a 429 with Retry-After: 1 is waited out and retried', async () => {
      upstream.script(step.status(429, '{"error":{"message":"Rate limit reached"}}', { 'retry-after': '1' }), step.audio);
      const response = await subject.synthesize({});
      expect(response.status).to.equal(200);
      expect(upstream.speechAttempts).to.equal(2);
    });

    it('a 429 whose Retry-After ends past the deadline is answered 429 with that Retry-After, after one attempt', async () => {
      upstream.script(step.status(429, '{"error":{"message":"Rate limit reached"}}', { 'retry-after': '30' }), step.audio);
      const response = await subject.synthesize({});
      expect(response.status).to.equal(429);
      expect(response.headers['retry-after']).to.equal('30');
      expectErrorEnvelope(response.body, 'TTS_ERR_RATE_LIMITED');
      expect(upstream.speechAttempts).to.equal(1);
    });

    it('tts-stream: a failure before the first audio is retried, and the audio streams', async () => {
      upstream.script(step.status(503), step.reset, step.audio);
      const response = await subject.stream();
      expect(response.status).to.equal(200);
      expect(upstream.speechAttempts).to.equal(3);
      expect(sniffAudioFormat(new Uint8Array(response.body as Buffer))).to.equal('mp3');
    });

    it('tts-stream: a connection cut after the first audio is not retried; the answer is cut too', async () => {
      upstream.script(step.truncated, step.audio);
      const failure = await subject.stream().then(
        () => undefined,
        (error: Error) => error,
      );
      // The audio had begun: the only honest signal left to the client is the dropped connection.
      expect(failure, 'the client should see the connection cut').to.be.instanceOf(Error);
      expect(upstream.speechAttempts).to.equal(1);
    });
  });

  describe('a deadline shorter than the provider timeout (deadline 400 ms, provider timeout 30 s)', () => {
    const subject = faultGatewayForSuite(upstream, { synthesis: { timeout: '400ms' }, resilience: { retries: 2, backoff: '1ms', maxBackoff: '5ms' } }, { timeoutMs: 30_000 });

    for (const [name, fault] of [
      ['a hanging provider', step.hang],
      ['a slow drip', step.drip],
    ] as const) {
      it(`answers ${name} 504 at the deadline, with no retry and nothing stored`, async () => {
        upstream.script(fault, step.audio);
        const response = await subject.synthesize({});
        expect(response.status).to.equal(504);
        expectErrorEnvelope(response.body, 'TTS_ERR_TIMEOUT');
        expect(upstream.speechAttempts).to.equal(1);
        expect(subject.storedFiles()).to.deep.equal([]);
      });
    }
  });
});
