import { expect } from 'chai';
import { faultGatewayForSuite } from './fault-gateway';
import { ScriptedUpstream, step } from './scripted-upstream';

/** A route whose preferred target takes 40 characters a call, so a longer text goes in chunks. */
const ROUTE = {
  name: 'narrator',
  strategy: 'fallback',
  targets: [
    { model: 'tts-1', voices: { default: 'alloy' } },
    { model: 'espeak-ng', voices: { default: 'en-us' } },
  ],
};
const TEXT = 'The first sentence is here. The second one follows it. And a third one ends it.';

/**
 * A stored synthesis in chunks whose preferred target fails midway (a long Retry-After) falls
 * back whole: the next target makes every chunk again, the ones already made included, so
 * that one file never mixes two providers' voices.
 */
describe('e2e: a fallback route whose chunked synthesis fails midway', function () {
  this.timeout(30_000);
  const upstream = ScriptedUpstream.forSuite();
  const subject = faultGatewayForSuite(
    upstream,
    {
      // One chunk at a time: the first is made before the second is refused.
      synthesis: { timeout: '20s', chunkConcurrency: 1 },
      resilience: { retries: 2, backoff: '1ms', maxBackoff: '100ms', breaker: { failures: 0 } },
      routes: [ROUTE],
    },
    { maxInputChars: 40 },
    [{ plugin: 'espeak' }],
  );

  it('makes the whole file on the next target, none of the preferred target\'s chunks in it', async () => {
    upstream.script(step.audio, step.status(429, '{"error":{"message":"Rate limit reached"}}', { 'retry-after': '3' }));
    upstream.fallback = step.audio;
    const response = await subject.synthesize({ model: 'narrator', voice: 'default', text: TEXT });
    expect(response.status, JSON.stringify(response.body)).to.equal(200);
    expect(upstream.speechAttempts, 'the first chunk made, the second refused').to.equal(2);
    expect(response.headers['x-tts-served-by']).to.equal('espeak-ng/en-us');
    // eSpeak takes the whole text in one call: one chunk, all of it in its voice.
    expect(response.headers['x-tts-applied']).to.include('chunks=1');
  });
});
