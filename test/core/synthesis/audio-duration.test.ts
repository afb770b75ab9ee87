import { expect } from 'chai';
import { audioDurationSeconds, createPcm, encodeAudio, type AudioFormat } from '../../../core';
import { conformanceAudio } from '../../plugins/openai-compatible/harness';
import { decodeForTest, durationSeconds } from '../../support/audio-analysis';

describe('core/synthesis audioDurationSeconds: length from the headers', () => {
  it('reads every format of one recorded utterance as the same length as its decoded samples', async () => {
    const recorded = conformanceAudio();
    const decoded = durationSeconds(await decodeForTest(recorded.wav, 'wav'));
    for (const format of ['mp3', 'opus', 'aac', 'flac', 'wav', 'pcm'] as const) {
      const seconds = audioDurationSeconds(recorded[format], format, 24_000);
      // Encoders pad to whole frames: a frame or two of slack.
      expect(seconds, format).to.be.closeTo(decoded, 0.08);
    }
  });

  it('reads what the gateway itself encodes', async () => {
    const pcm = createPcm(new Float32Array(48_000 * 1.5).map((_, index) => 0.2 * Math.sin(index / 7)), 48_000);
    for (const format of ['wav', 'mp3', 'opus', 'flac', 'pcm'] as AudioFormat[]) {
      const encoded = await encodeAudio(pcm, format);
      expect(audioDurationSeconds(encoded.audio, format, encoded.sampleRate), format).to.be.closeTo(1.5, 0.08);
    }
  });

  // A whole FLAC answer whose STREAMINFO says "length unknown" (0: as a streaming encoder writes
  // it) read as undefined: a file of it counted 0 s and was not held to maxAudioDuration.
  it('reads a FLAC whose STREAMINFO says "length unknown" by its frames', async () => {
    const pcm = createPcm(new Float32Array(48_000 * 1.5).map((_, index) => 0.2 * Math.sin(index / 7)), 48_000);
    const streamed = Uint8Array.from((await encodeAudio(pcm, 'flac')).audio);
    streamed[21] &= 0xf0;
    streamed.fill(0, 22, 26);
    expect(audioDurationSeconds(streamed, 'flac')).to.equal(1.5);
  });

  it('answers undefined for bytes that are not the format named', () => {
    expect(audioDurationSeconds(new Uint8Array([1, 2, 3]), 'flac')).to.equal(undefined);
    expect(audioDurationSeconds(new Uint8Array([1, 2, 3]), 'wav')).to.equal(undefined);
    expect(audioDurationSeconds(new Uint8Array(64), 'mp3')).to.equal(undefined);
    expect(audioDurationSeconds(new Uint8Array(64), 'pcm')).to.equal(undefined);
  });
});
