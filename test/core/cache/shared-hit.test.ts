import { expect } from 'chai';
import { appliedPlan } from '../../support/applied-plan';
import { CachedSynthesis, ResultCache, type CacheStorage, type SynthesisRequest, type SynthesisResult, type Synthesizer } from '../../../core';
import { QUIET_LOGGER } from '../../support/quiet-logger';

const request: SynthesisRequest = { model: 'm', voice: 'v', text: 'Hello there.', speed: 1, pitch: 1, volume: 1, format: 'mp3' };

/** A storage that can share: names point at one shared record of bytes, as hard links do. */
function sharingFixture() {
  const names = new Map<string, { bytes: Uint8Array; owner?: string }>();
  const log: string[] = [];
  let counter = 0;
  const storage: CacheStorage = {
    read: async (fileName) => {
      log.push(`read ${fileName}`);
      return names.get(fileName)?.bytes;
    },
    save: async (audio, _format, _rate, owner) => {
      const fileName = `file-${++counter}.mp3`;
      log.push(`save ${fileName}`);
      names.set(fileName, { bytes: audio, owner });
      return { fileName, size: audio.byteLength };
    },
    share: async (fileName, owner) => {
      const found = names.get(fileName);
      log.push(`share ${fileName}`);
      if (!found) return undefined;
      const shared = `file-${++counter}.mp3`;
      names.set(shared, { bytes: found.bytes, owner });
      return { fileName: shared, size: found.bytes.byteLength };
    },
  };
  let calls = 0;
  const synthesizer: Synthesizer = {
    synthesize: async (_request, context) => {
      calls += 1;
      const saved = await storage.save(Buffer.from('audio'), 'mp3', undefined, context.accountId);
      return { ...saved, format: 'mp3', applied: appliedPlan(), provider: 'acme', servedBy: 'm/v', instructionsIgnored: false } satisfies SynthesisResult;
    },
    stream: async () => expect.fail('not streamed here'),
  };
  const cached = new CachedSynthesis(synthesizer, new ResultCache({ maxBytes: 1_000_000, ttlMs: 60_000 }), storage, QUIET_LOGGER, { maxStreamBytes: 1000 });
  return { cached, names, log, calls: () => calls };
}

describe('core/cache CachedSynthesis with a storage that shares stored bytes', () => {
  it('answers a hit with a new name of its own for the requester, reading and writing no bytes', async () => {
    const { cached, names, log, calls } = sharingFixture();
    const first = await cached.synthesize(request, { requestId: 'a', accountId: 'alice' });
    log.length = 0;
    const second = await cached.synthesize(request, { requestId: 'b', accountId: 'bob' });
    expect(second.cache).to.equal('hit');
    expect(calls()).to.equal(1);
    expect(second.fileName).to.not.equal(first.fileName);
    expect(log).to.deep.equal([`share ${first.fileName}`]);
    expect(names.get(second.fileName)).to.deep.include({ owner: 'bob' });
  });

  it('synthesizes again when the stored file is gone, and forgets the stale entry', async () => {
    const { cached, names, calls } = sharingFixture();
    const first = await cached.synthesize(request, { requestId: 'a' });
    names.delete(first.fileName);
    const second = await cached.synthesize(request, { requestId: 'b' });
    expect(second.cache).to.equal('miss');
    expect(calls()).to.equal(2);
    const third = await cached.synthesize(request, { requestId: 'c' });
    expect(third.cache).to.equal('hit');
    expect(calls()).to.equal(2);
  });
});
