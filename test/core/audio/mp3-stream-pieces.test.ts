import { expect } from 'chai';
import { Mp3StreamEncoder } from '../../../core/audio/encode/mp3-encoder';
import { truncationOf } from '../../../core/audio/frame-walker';
import { decodeForTest } from '../../support/audio-analysis';

/** Two seconds of a 22.05 kHz tone with some movement, so frames differ. */
const RATE = 22_050;
const SIGNAL = Float32Array.from({ length: 2 * RATE }, (_value, index) => 0.3 * Math.sin((2 * Math.PI * (200 + index / 200) * index) / RATE));

describe('audio stream codecs: mp3 pieces', () => {
  it('hands out whole MP3 frames in every piece, as the other encoders hand out whole pages and frames (each SSE delta decodes alone)', async () => {
    const encoder = await Mp3StreamEncoder.open(RATE);
    const pieces: Uint8Array[] = [];
    // Uneven writes, as the seams and DSP of a stream make them.
    for (let start = 0, size = 3_001; start < SIGNAL.length; start += size, size = (size * 7) % 9_000 + 500) pieces.push(await encoder.write(SIGNAL.subarray(start, start + size)));
    pieces.push(await encoder.end());
    const filled = pieces.filter((piece) => piece.byteLength > 0);
    expect(filled.length).to.be.greaterThan(3);
    for (const piece of filled) {
      expect(piece[0], 'a piece starts with a frame sync').to.equal(0xff);
      expect(truncationOf(piece, 'mp3'), 'a piece ends with its last frame').to.equal(undefined);
    }
    const whole = await decodeForTest(Buffer.concat(pieces), 'mp3');
    expect(whole.samples.length / whole.sampleRate).to.be.within(1.95, 2.2);
  });
});
