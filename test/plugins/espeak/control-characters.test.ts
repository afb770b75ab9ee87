import { expect } from 'chai';
import type { TtsProvider } from '../../../core';
import { decodeForTest, durationSeconds, rms, type PcmAudio } from '../../support/audio-analysis';
import { createProvider, SAMPLE_TEXT, synthesisRequest } from './harness';

/** eSpeak's embedded-command character: U+0001 followed by a value and a letter (`100H` is echo). */
const EMBEDDED_COMMAND = '\u0001';

describe('espeak plugin: control characters in the text', function () {
  this.timeout(60_000);
  let provider: TtsProvider;

  const speak = async (text: string): Promise<PcmAudio> => {
    const audio = await provider.synthesize(synthesisRequest({ text, format: 'pcm' }));
    return decodeForTest(audio.audio, audio.format, audio.sampleRate);
  };

  // One thread: every request below meets the engine the ones before it used.
  before(async () => {
    provider = await createProvider({ workers: 1 });
  });
  after(() => provider.close?.());

  it("cannot command the engine: another client's next request sounds as before", async () => {
    const before = await speak(SAMPLE_TEXT);
    await speak(`${EMBEDDED_COMMAND}100H ${EMBEDDED_COMMAND}200A hello`);
    const after = await speak(SAMPLE_TEXT);
    // Without the fix the echo stays on in the engine: the level drops by about 15%.
    expect(Math.abs(rms(after) / rms(before) - 1), 'level of the same text').to.be.below(0.03);
    expect(Math.abs(durationSeconds(after) / durationSeconds(before) - 1), 'length of the same text').to.be.below(0.01);
  });

  it('speaks the text after a NUL character instead of dropping it', async () => {
    const spaced = await speak('hello there, my good friend');
    const withNul = await speak('hello\u0000there, my good friend');
    expect(durationSeconds(withNul) / durationSeconds(spaced)).to.be.above(0.9);
  });
});
