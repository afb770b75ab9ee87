import { expect } from 'chai';
import { appliedPlan } from '../../support/applied-plan';
import { recordingWinstonLogger } from '../../support/recording-winston-logger';
import { eventually } from '../../support/eventually';
import { CachedSynthesis, ResultCache, type Synthesizer } from '../../../core';
import { extended } from '../../../core/objects/extended';
import { request, text } from './cache-test-support';

/** Every log line about a request carries its id (README, Logging): this one is written after the answer ended. */
describe('core/cache CachedSynthesis: a streamed result that could not be stored', () => {
  it("is logged with the request's id and the store's message; the stream itself was answered whole", async () => {
    const facts = { format: 'mp3' as const, applied: appliedPlan(), provider: 'acme', servedBy: 'm/v', instructionsIgnored: false };
    const synthesizer: Synthesizer = {
      synthesize: async () => Promise.reject(new Error('not called')),
      stream: async () => {
        async function* chunks() {
          yield Buffer.from('streamed audio');
        }
        return extended(facts, { progress: { bytes: 0 }, chunks: chunks() });
      },
    };
    const storage = { read: async () => undefined, save: async () => Promise.reject(new Error('the store is down')) };
    const lines: Record<string, unknown>[] = [];
    const cached = new CachedSynthesis(synthesizer, new ResultCache({ maxBytes: 1_000_000, ttlMs: 60_000 }), storage, recordingWinstonLogger(lines), { maxStreamBytes: 10_000 });
    expect(await text(await cached.stream(request(), { requestId: 'request-9' }))).to.equal('streamed audio');
    await eventually(() => {
      expect(lines.find((line) => line.message === 'a streamed result was not cached')).to.deep.include({ requestId: 'request-9', errorMessage: 'the store is down' });
    });
  });
});
