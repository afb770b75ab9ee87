import { expect } from 'chai';
import { appliedPlan } from '../../support/applied-plan';
import { CachedSynthesis, ResultCache, type SynthesisResult, type SynthesisStream, type Synthesizer } from '../../../core';
import { QUIET_LOGGER } from '../../support/quiet-logger';
import { memoryStorage, request, text } from './cache-test-support';

describe('core/cache CachedSynthesis: answersStill', () => {
  it('treats a remembered answer that no longer answers as a miss, and remembers the new answer instead', async () => {
    // A fallback route's story: the first answers come from the fallback target, then the preferred one is back.
    let servedBy = 'fallback/v';
    let preferredDown = true;
    const calls: string[] = [];
    const files = new Map<string, Uint8Array>();
    const storage = memoryStorage(files);
    const facts = () => ({ format: 'mp3' as const, applied: appliedPlan(), provider: servedBy.split('/')[0], servedBy, instructionsIgnored: false });
    const synthesizer: Synthesizer = {
      synthesize: async (synthesisRequest) => {
        calls.push(`file by ${servedBy}`);
        return { ...(await storage.save(Buffer.from(`${servedBy}: ${synthesisRequest.text}`), 'mp3')), ...facts() } satisfies SynthesisResult;
      },
      stream: async (synthesisRequest) => {
        calls.push(`stream by ${servedBy}`);
        const progress = { bytes: 0 };
        const bytes = Buffer.from(`${servedBy} streamed: ${synthesisRequest.text}`);
        async function* chunks() {
          progress.bytes += bytes.byteLength;
          yield bytes;
        }
        return { ...facts(), progress, chunks: chunks() } satisfies SynthesisStream;
      },
    };
    const cached = new CachedSynthesis(synthesizer, new ResultCache({ maxBytes: 1_000_000, ttlMs: 60_000 }), storage, QUIET_LOGGER, {
      maxStreamBytes: 1000,
      answersStill: (_request, remembered) => remembered.servedBy === 'preferred/v' || preferredDown,
    });
    const file = (id: string) => cached.synthesize(request(), { requestId: id });
    expect((await file('1')).cache).to.equal('miss');
    // Still down: the fallback's answer is a hit.
    expect(await file('2')).to.include({ cache: 'hit', servedBy: 'fallback/v' });
    preferredDown = false;
    servedBy = 'preferred/v';
    expect(await file('3')).to.include({ cache: 'miss', servedBy: 'preferred/v' });
    expect(await file('4')).to.include({ cache: 'hit', servedBy: 'preferred/v' });
    expect(calls).to.deep.equal(['file by fallback/v', 'file by preferred/v']);

    // The same for streams.
    const streamed = { ...request(), text: 'Streamed.' };
    servedBy = 'fallback/v';
    preferredDown = true;
    expect(await text(await cached.stream(streamed, { requestId: '5' }))).to.equal('fallback/v streamed: Streamed.');
    expect((await cached.stream(streamed, { requestId: '6' })).cache).to.equal('hit');
    preferredDown = false;
    servedBy = 'preferred/v';
    const replaced = await cached.stream(streamed, { requestId: '7' });
    expect(replaced.cache).to.equal('miss');
    expect(await text(replaced)).to.equal('preferred/v streamed: Streamed.');
    const hit = await cached.stream(streamed, { requestId: '8' });
    expect([hit.cache, hit.servedBy, await text(hit)]).to.deep.equal(['hit', 'preferred/v', 'preferred/v streamed: Streamed.']);
  });
});
