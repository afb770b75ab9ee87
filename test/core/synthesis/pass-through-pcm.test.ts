import { expect } from 'chai';
import type { GatewayError } from '../../../core';
import { fixture, request } from './streaming-fixture';

/** A provider that streams raw 24 kHz pcm natively, in pieces of the given sizes (as network reads cut it). */
function pcmProvider(sizes: readonly number[]) {
  const sent = Buffer.alloc(sizes.reduce((total, size) => total + size, 0));
  for (let index = 0; index < sent.length; index += 1) sent[index] = (index * 7) % 50;
  return {
    sent,
    service: fixture({
      capabilities: { formats: ['pcm'], pcmSampleRate: 24000 },
      synthesizeStream: async () => {
        async function* body() {
          let offset = 0;
          for (const size of sizes) {
            yield sent.subarray(offset, offset + size);
            offset += size;
          }
        }
        return { format: 'pcm', sampleRate: 24000, warnings: [], chunks: body() };
      },
    }).service,
  };
}

const PCM_REQUEST = request({ text: 'A short text that one call takes whole.', format: 'pcm', sampleRate: 24000 });

describe('core/synthesis streaming: raw pcm passed through in whole samples', () => {
  it('hands on every piece as whole 16-bit samples when the provider cuts them mid-sample (each SSE delta decodes alone)', async () => {
    const { service, sent } = pcmProvider([17, 3, 1, 5, 2, 1, 3]);
    const stream = await service.stream(PCM_REQUEST, { requestId: 'pcm-aligned' });
    expect(stream.applied.format, 'the provider bytes pass as they came').to.equal('native');
    const pieces: Uint8Array[] = [];
    for await (const piece of stream.chunks) pieces.push(piece);
    expect(pieces.map((piece) => piece.byteLength % 2)).to.deep.equal(pieces.map(() => 0));
    expect(Buffer.concat(pieces).equals(sent)).to.equal(true);
    expect(stream.progress.bytes).to.equal(sent.length);
  });

  it('fails a stream whose last sample is cut short, without sending its half sample', async () => {
    const { service } = pcmProvider([17, 4]);
    const stream = await service.stream(PCM_REQUEST, { requestId: 'pcm-odd' });
    const pieces: Uint8Array[] = [];
    const failure = await (async () => {
      for await (const piece of stream.chunks) pieces.push(piece);
    })().then(
      () => undefined,
      (error: GatewayError) => error,
    );
    expect(failure?.code).to.equal('TTS_ERR_UPSTREAM_BAD_RESPONSE');
    expect(pieces.map((piece) => piece.byteLength % 2)).to.deep.equal(pieces.map(() => 0));
    expect(Buffer.concat(pieces).length).to.equal(20);
  });
});
