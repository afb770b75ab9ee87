import { expect } from 'chai';
import { streamOf } from '../../../core/cache/stored-stream';
import { buildWav, speechPcm } from '../audio/speech-fixture';

async function piecesOf(bytes: Uint8Array): Promise<Uint8Array[]> {
  const pieces: Uint8Array[] = [];
  for await (const piece of streamOf(bytes, 'wav', 22050, undefined).chunks) pieces.push(piece);
  return pieces;
}

/** The same WAV with a `fmt ` chunk of 18 bytes (a cbSize field, as some writers add): its samples start at 46. */
function withLongerFmt(wav: Uint8Array): Uint8Array {
  const longer = new Uint8Array(wav.length + 2);
  longer.set(wav.subarray(0, 36), 0);
  longer.set(wav.subarray(36), 38);
  const view = new DataView(longer.buffer);
  view.setUint32(4, longer.length - 8, true);
  view.setUint32(16, 18, true);
  return longer;
}

/**
 * A cache hit streamed in pieces of 64 KiB: an even size kept 16-bit mono samples whole, but a
 * 24-bit or multichannel WAV's piece ended inside a sample (65,492 data bytes after a 44-byte
 * header), and an SSE client decodes each delta on its own (the rest of that sample went with
 * the next one, misread). Pieces end on a whole sample frame (all channels) after the header.
 */
describe('core/cache a stored WAV streamed as a hit: pieces hold whole samples', () => {
  const speech = speechPcm();
  const cases: [string, Uint8Array, number][] = [
    ['24-bit mono', buildWav(speech, { channels: 1, bits: 24 }), 3],
    ['24-bit stereo', buildWav(speech, { channels: 2, bits: 24 }), 6],
    ['32-bit float stereo', buildWav(speech, { channels: 2, bits: 32, float: true }), 8],
    ['16-bit stereo, samples from byte 46', withLongerFmt(buildWav(speech, { channels: 2, bits: 16 })), 4],
  ];
  for (const [name, wav, frameBytes] of cases) {
    it(`ends every piece of a ${name} WAV on a whole sample frame`, async () => {
      const dataOffset = wav.length - speech.samples.length * frameBytes;
      const pieces = await piecesOf(wav);
      expect(pieces.length).to.be.greaterThan(2);
      let sent = 0;
      for (const piece of pieces) {
        sent += piece.byteLength;
        expect((sent - dataOffset) % frameBytes, `${name}: bytes of samples sent by byte ${sent}`).to.equal(0);
      }
      expect(Buffer.concat(pieces).equals(Buffer.from(wav))).to.equal(true);
    });
  }
});
