import { expect } from 'chai';
import { appliedPlan } from '../../support/applied-plan';
import { CachedSynthesis, ResultCache, type Synthesizer } from '../../../core';
import { QUIET_LOGGER } from '../../support/quiet-logger';
import { extended } from '../../../core/objects/extended';
import { readWavInfo } from '../../../core/audio/decode/wav-decoder';
import { wavHeader } from '../../../core/audio/encode/wav-encoder';
import { FlacStreamEncoder } from '../../../core/audio/encode/flac-encoder';
import { decodeFlac } from '../../../core/audio/decode/flac-decoder';
import { audioDurationSeconds } from '../../../core/synthesis/audio-duration';
import { memoryStorage, request } from './cache-test-support';

/** A remembered stream is stored as a file states itself (core/cache/closed-lengths.ts). */
describe('core/cache CachedSynthesis: the lengths of a stored stream', () => {
  it('stores a streamed WAV with the exact sizes of a file: a file hit gets no open-ended header', async () => {
    const files = new Map<string, Uint8Array>();
    const samples = new Uint8Array(400).fill(1);
    const facts = { format: 'wav' as const, applied: appliedPlan({ format: 'transcoded' }), provider: 'acme', servedBy: 'm/v', instructionsIgnored: false };
    const synthesizer: Synthesizer = {
      synthesize: async () => Promise.reject(new Error('not called')),
      stream: async () => {
        const progress = { bytes: 0, sampleRate: 22050 };
        // As the gateway streams a WAV: sizes "until the end" in the header, samples after it.
        async function* chunks() {
          for (const piece of [wavHeader(22050), samples.subarray(0, 200), samples.subarray(200)]) {
            progress.bytes += piece.byteLength;
            yield piece;
          }
        }
        return extended(facts, { progress, chunks: chunks() });
      },
    };
    const storage = memoryStorage(files);
    const cached = new CachedSynthesis(synthesizer, new ResultCache({ maxBytes: 1_000_000, ttlMs: 60_000 }), storage, QUIET_LOGGER, { maxStreamBytes: 10_000 });
    const live = await cached.stream(request({ format: 'wav' }), { requestId: 'a' });
    for await (const _piece of live.chunks);
    const file = await cached.synthesize(request({ format: 'wav' }), { requestId: 'b' });
    expect(file.cache).to.equal('hit');
    const bytes = files.get(file.fileName) as Uint8Array;
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    expect([view.getUint32(4, true), view.getUint32(40, true)]).to.deep.equal([bytes.byteLength - 8, 400]);
    expect(readWavInfo(bytes)).to.deep.include({ openEnded: false, dataBytes: 400, sampleRate: 22050 });
  });


  it('stores a streamed FLAC with its length in STREAMINFO: a file hit states its duration', async () => {
    const files = new Map<string, Uint8Array>();
    const rate = 22050;
    const tone = Float32Array.from({ length: 30_000 }, (_, index) => 0.3 * Math.sin(index / 7));
    const facts = { format: 'flac' as const, applied: appliedPlan({ format: 'transcoded' }), provider: 'acme', servedBy: 'm/v', instructionsIgnored: false };
    const synthesizer: Synthesizer = {
      synthesize: async () => Promise.reject(new Error('not called')),
      stream: async () => {
        const progress: { bytes: number; sampleRate: number; durationSeconds?: number } = { bytes: 0, sampleRate: rate };
        // As the gateway streams a FLAC: libFLAC's header says "length unknown", and the encoder counts the samples.
        async function* chunks() {
          const encoder = await FlacStreamEncoder.open(rate);
          for (const piece of [await encoder.write(tone.subarray(0, 12_000)), await encoder.write(tone.subarray(12_000)), await encoder.end()]) {
            progress.bytes += piece.byteLength;
            yield piece;
          }
          progress.durationSeconds = tone.length / rate;
        }
        return extended(facts, { progress, chunks: chunks() });
      },
    };
    const cached = new CachedSynthesis(synthesizer, new ResultCache({ maxBytes: 1_000_000, ttlMs: 60_000 }), memoryStorage(files), QUIET_LOGGER, { maxStreamBytes: 1_000_000 });
    const live = await cached.stream(request({ format: 'flac' }), { requestId: 'a' });
    const sent: Uint8Array[] = [];
    for await (const piece of live.chunks) sent.push(piece);
    // What the client was sent says "unknown" (a STREAMINFO total of 0); what was stored says the length.
    const streamInfoTotal = (flac: Uint8Array): number => (flac[21] & 0x0f) * 2 ** 32 + Buffer.from(flac).readUInt32BE(22);
    expect(streamInfoTotal(Buffer.concat(sent))).to.equal(0);
    const file = await cached.synthesize(request({ format: 'flac' }), { requestId: 'b' });
    expect(file.cache).to.equal('hit');
    const bytes = files.get(file.fileName) as Uint8Array;
    expect(streamInfoTotal(bytes)).to.equal(tone.length);
    expect(audioDurationSeconds(bytes, 'flac')).to.equal(tone.length / rate);
    const decoded = await decodeFlac(bytes);
    expect([decoded.sampleRate, decoded.samples.length]).to.deep.equal([rate, tone.length]);
  });
});
