import { expect } from 'chai';
import { appliedPlan } from '../../support/applied-plan';
import { CachedSynthesis, ResultCache, type Synthesizer } from '../../../core';
import { QUIET_LOGGER } from '../../support/quiet-logger';
import { extended } from '../../../core/objects/extended';
import { memoryStorage, request } from './cache-test-support';

/** A 44-byte WAV header: `formatTag` 7 is mu-law (telephony), 8 bits a sample. */
function wavHeaderOf(formatTag: number, dataBytes: number): Uint8Array {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + dataBytes, 4);
  header.write('WAVE', 8);
  header.write('fmt ', 12);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(formatTag, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(8000, 24);
  header.writeUInt32LE(8000, 28);
  header.writeUInt16LE(1, 32);
  header.writeUInt16LE(8, 34);
  header.write('data', 36);
  header.writeUInt32LE(dataBytes, 40);
  return header;
}

/**
 * The lengths of a remembered stream are closed only for the WAVs the gateway reads; a WAV it
 * does not decode (a provider's mu-law, passed on as it came) has nothing to close, and a stream
 * that ended whole is remembered all the same (README "Result cache": a finished stream is).
 */
describe('core/cache CachedSynthesis: a streamed WAV the gateway does not decode', () => {
  it('is remembered like any finished stream: the next identical stream is a hit', async () => {
    const samples = new Uint8Array(800).fill(0xff);
    let providerCalls = 0;
    const facts = { format: 'wav' as const, applied: appliedPlan({ format: 'native' }), provider: 'acme', servedBy: 'm/v', instructionsIgnored: false };
    const synthesizer: Synthesizer = {
      synthesize: async () => Promise.reject(new Error('not called')),
      stream: async () => {
        providerCalls += 1;
        const progress = { bytes: 0, sampleRate: 8000 };
        async function* chunks() {
          for (const piece of [wavHeaderOf(7, samples.length), samples]) {
            progress.bytes += piece.byteLength;
            yield piece;
          }
        }
        return extended(facts, { progress, chunks: chunks() });
      },
    };
    const files = new Map<string, Uint8Array>();
    const cached = new CachedSynthesis(synthesizer, new ResultCache({ maxBytes: 1_000_000, ttlMs: 60_000 }), memoryStorage(files), QUIET_LOGGER, { maxStreamBytes: 10_000 });
    const first = await cached.stream(request({ format: 'wav' }), { requestId: 'a' });
    for await (const _piece of first.chunks);
    const second = await cached.stream(request({ format: 'wav' }), { requestId: 'b' });
    for await (const _piece of second.chunks);
    expect([second.cache, providerCalls, files.size]).to.deep.equal(['hit', 1, 1]);
  });
});
