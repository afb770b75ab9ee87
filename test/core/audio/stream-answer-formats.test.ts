import { expect } from 'chai';
import type { AudioFormat } from '../../../core/audio/audio-format';
import { AudioProcessor } from '../../../core/audio/audio-processor';
import { encodeAudio } from '../../../core/audio/encode/encode-audio';
import { encodeWav } from '../../../core/audio/encode/wav-encoder';
import { decodeForTest, durationSeconds } from '../../support/audio-analysis';
import { speechPcm } from './speech-fixture';

/**
 * Streams (POST /v1/audio/speech always streams) take provider answers in every format the engine
 * decodes. Some decoders give their samples only when the answer ends: FLAC (decoded whole),
 * Opus (the decoder's flush), AAC (ffmpeg's last output), and any answer shorter than the bytes
 * the format check waits for.
 */
describe('AudioProcessor streams: answers whose samples come at their end', function () {
  this.timeout(60_000);
  let processor: AudioProcessor;
  const speech = speechPcm();

  before(() => {
    processor = new AudioProcessor({ workers: 1 });
  });

  after(() => processor.close());

  for (const format of ['flac', 'opus', 'aac'] as const) {
    it(`${format}: two answers stream to wav as long as the speech twice`, async () => {
      const answer = await encodeAudio(speech, format);
      const session = await processor.openStream({ output: 'wav', speed: 1, pitch: 1, volume: 1 });
      const pieces: Uint8Array[] = [];
      try {
        for (let index = 0; index < 2; index += 1) pieces.push((await session.push({ audio: answer.audio, format, sampleRate: answer.sampleRate })).audio);
        pieces.push((await session.end()).audio);
      } finally {
        await session.close();
      }
      const decoded = await decodeForTest(new Uint8Array(Buffer.concat(pieces)), 'wav');
      // Two answers joined with one 10 ms crossfade (AAC adds its encoder delay, ~0.1 s per answer).
      expect(durationSeconds(decoded)).to.be.closeTo(2 * durationSeconds(speech), format === 'aac' ? 0.3 : 0.05);
    });
  }

  it('a wav answer shorter than the format check waits for (62 bytes) joins the stream', async () => {
    const tiny: AudioFormat = 'wav';
    const rate = 22050;
    const session = await processor.openStream({ output: 'pcm', speed: 1, pitch: 1, volume: 1 });
    const pieces: Uint8Array[] = [];
    try {
      pieces.push((await session.push({ audio: encodeWav({ samples: new Float32Array(rate / 10).fill(0.1), sampleRate: rate }), format: 'wav' })).audio);
      pieces.push((await session.push({ audio: encodeWav({ samples: new Float32Array(9).fill(0.1), sampleRate: rate }), format: tiny })).audio);
      pieces.push((await session.end()).audio);
    } finally {
      await session.close();
    }
    const decoded = await decodeForTest(new Uint8Array(Buffer.concat(pieces)), 'pcm', rate);
    expect(decoded.samples.length).to.be.at.least(rate / 10);
  });
});
