import { expect } from 'chai';
import { encodeOggOpus } from '../../../core/audio/encode/opus-encoder';
import { fixture, request } from './streaming-fixture';

/** A tenth of a second of a 24 kHz tone. */
const TONE = { samples: Float32Array.from({ length: 2_400 }, (_value, index) => 0.3 * Math.sin((2 * Math.PI * 220 * index) / 24_000)), sampleRate: 24_000 };

describe('core/synthesis streaming: a provider stream is recognised however the network cuts it', () => {
  it('passes Ogg Opus through when its first pieces are shorter than the page header and its OpusHead', async () => {
    const opus = await encodeOggOpus(TONE);
    const { service } = fixture({
      capabilities: { formats: ['opus'] },
      synthesizeStream: async () => {
        async function* body() {
          for (let offset = 0; offset < opus.length; offset += 20) yield opus.subarray(offset, offset + 20);
        }
        return { format: 'opus', warnings: [], chunks: body() };
      },
    });
    const stream = await service.stream(request({ text: 'A short text.', format: 'opus' }), { requestId: 'opus-small-reads' });
    const pieces: Uint8Array[] = [];
    for await (const piece of stream.chunks) pieces.push(piece);
    expect(Buffer.concat(pieces).equals(Buffer.from(opus))).to.equal(true);
    expect(stream.applied.format).to.equal('native');
  });
});
