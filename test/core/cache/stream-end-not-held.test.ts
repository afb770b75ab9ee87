import { expect } from 'chai';
import { appliedPlan } from '../../support/applied-plan';
import { CachedSynthesis, ResultCache, type CacheStorage, type Synthesizer } from '../../../core';
import { QUIET_LOGGER } from '../../support/quiet-logger';
import { extended } from '../../../core/objects/extended';
import { request } from './cache-test-support';

/**
 * Remembering a finished stream is the cache's own work: the client is never given that file.
 * Its durable save (fdatasync of the file, fsync of the folder, on the save thread behind the
 * batch of every other save) must not hold the end of the client's answer.
 */
describe('core/cache CachedSynthesis: the end of a remembered stream', () => {
  it('ends the client stream while the cache copy is still being saved; a repeat waits for it and is a hit', async () => {
    const facts = { format: 'mp3' as const, applied: appliedPlan({ format: 'native' }), provider: 'acme', servedBy: 'm/v', instructionsIgnored: false };
    let providerCalls = 0;
    const synthesizer: Synthesizer = {
      synthesize: async () => Promise.reject(new Error('not called')),
      stream: async () => {
        providerCalls += 1;
        const progress = { bytes: 0 };
        async function* chunks() {
          for (const piece of [Buffer.from('one '), Buffer.from('two')]) {
            progress.bytes += piece.byteLength;
            yield piece;
          }
        }
        return extended(facts, { progress, chunks: chunks() });
      },
    };
    // A disk that stalls (a busy or hung mount): the save answers when released.
    let releaseDisk: () => void = () => undefined;
    const diskBack = new Promise<void>((resolve) => (releaseDisk = resolve));
    const files = new Map<string, Uint8Array>();
    const storage: CacheStorage = {
      read: async (fileName) => files.get(fileName),
      save: async (audio) => {
        await diskBack;
        files.set('stored.mp3', audio);
        return { fileName: 'stored.mp3', size: audio.byteLength };
      },
    };
    const cached = new CachedSynthesis(synthesizer, new ResultCache({ maxBytes: 1_000_000, ttlMs: 60_000 }), storage, QUIET_LOGGER, { maxStreamBytes: 10_000 });
    const live = await cached.stream(request(), { requestId: 'a' });
    const read = (async () => {
      let all = '';
      for await (const piece of live.chunks) all += Buffer.from(piece).toString();
      return all;
    })();
    const ended = await Promise.race([read, new Promise((resolve) => setTimeout(() => resolve('still open'), 500))]);
    releaseDisk();
    await read;
    expect(ended).to.equal('one two');
    const repeat = await cached.stream(request(), { requestId: 'b' });
    expect([repeat.cache, providerCalls]).to.deep.equal(['hit', 1]);
  });
});
