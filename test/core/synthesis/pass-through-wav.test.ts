import { expect } from 'chai';
import { fixture, request } from './streaming-fixture';

const HEADER_BYTES = 44;
/** 16-bit stereo: one sample of both channels. */
const FRAME_BYTES = 4;

/** A 24 kHz 16-bit stereo WAV of `dataBytes` bytes of data; its data size `declared` (0xFFFFFFFF: open-ended). */
function stereoWav(dataBytes: number, declared = dataBytes): Buffer {
  const wav = Buffer.alloc(HEADER_BYTES + dataBytes);
  wav.write('RIFF', 0, 'ascii');
  wav.writeUInt32LE(declared === 0xffff_ffff ? declared : 36 + declared, 4);
  wav.write('WAVEfmt ', 8, 'ascii');
  wav.writeUInt32LE(16, 16);
  wav.writeUInt16LE(1, 20);
  wav.writeUInt16LE(2, 22);
  wav.writeUInt32LE(24000, 24);
  wav.writeUInt32LE(24000 * FRAME_BYTES, 28);
  wav.writeUInt16LE(FRAME_BYTES, 32);
  wav.writeUInt16LE(16, 34);
  wav.write('data', 36, 'ascii');
  wav.writeUInt32LE(declared, 40);
  for (let index = HEADER_BYTES; index < wav.length; index += 1) wav[index] = (index * 7) % 50;
  return wav;
}

/** A provider that streams `sent` natively as WAV, in pieces of the given sizes (as network reads cut it). */
function wavProvider(sent: Buffer, sizes: readonly number[]) {
  return fixture({
    capabilities: { formats: ['wav'] },
    synthesizeStream: async () => {
      async function* body() {
        let offset = 0;
        for (let index = 0; offset < sent.length; index += 1) {
          const size = sizes[index % sizes.length];
          yield sent.subarray(offset, offset + size);
          offset += size;
        }
      }
      return { format: 'wav', sampleRate: 24000, warnings: [], chunks: body() };
    },
  }).service;
}

const WAV_REQUEST = request({ text: 'A short text that one call takes whole.', format: 'wav', sampleRate: 24000 });

async function piecesOf(chunks: AsyncIterable<Uint8Array>): Promise<Uint8Array[]> {
  const pieces: Uint8Array[] = [];
  for await (const piece of chunks) pieces.push(piece);
  return pieces;
}

/**
 * A WAV answer passed through went out as the network cut it, so a `/v1` SSE delta (each decoded
 * on its own) could split a sample. Its pieces now hold the header, then whole sample frames of
 * every channel (as raw pcm's whole samples and a cached WAV's pieces do), and nothing is lost.
 */
describe('core/synthesis streaming: WAV passed through in whole sample frames', () => {
  it('hands on the header, then data in whole frames, when the provider cuts them mid-frame', async () => {
    const sent = stereoWav(4000);
    const stream = await wavProvider(sent, [70, 3, 1, 5, 333, 2, 1, 7]).stream(WAV_REQUEST, { requestId: 'wav-aligned' });
    expect(stream.applied.format, 'the provider bytes pass as they came').to.equal('native');
    const pieces = await piecesOf(stream.chunks);
    const dataLengths = pieces.map((piece, index) => (index === 0 ? piece.byteLength - HEADER_BYTES : piece.byteLength));
    expect(dataLengths.map((length) => length % FRAME_BYTES)).to.deep.equal(pieces.map(() => 0));
    expect(Buffer.concat(pieces).equals(sent)).to.equal(true);
    expect(stream.progress.bytes).to.equal(sent.length);
  });

  it('still hands on an open-ended WAV whose last frame is partial, whole bytes and all', async () => {
    const sent = stereoWav(4002, 0xffff_ffff);
    const pieces = await piecesOf((await wavProvider(sent, [101, 13]).stream(WAV_REQUEST, { requestId: 'wav-open' })).chunks);
    expect(Buffer.concat(pieces).equals(sent)).to.equal(true);
    expect(pieces.at(-1)!.byteLength).to.equal(2);
  });
});
