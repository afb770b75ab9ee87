import { expect } from 'chai';
import type { ModelInfo, ProviderAudio, TtsProvider } from '../../../core';
import {
  countMp3Frames,
  decodeForTest,
  durationSeconds,
  medianF0,
  parseWavHeader,
  rms,
  speechDurationSeconds,
  type PcmAudio,
} from '../../support/audio-analysis';
import { synthesisRequest, createProvider } from './harness';

/** Within `tolerance` (relative) of `expected`. */
function expectNear(actual: number, expected: number, tolerance: number, what: string): void {
  expect(Math.abs(actual / expected - 1), `${what}: ${actual.toFixed(3)} vs ${expected.toFixed(3)}`).to.be.at.most(tolerance);
}

describe('espeak plugin: synthesis (real engine output)', function () {
  this.timeout(60_000);
  let provider: TtsProvider;
  let model: ModelInfo;
  let baseline: PcmAudio;

  const speak = (overrides: Parameters<typeof synthesisRequest>[0] = {}): Promise<ProviderAudio> => provider.synthesize(synthesisRequest(overrides));
  const decoded = async (overrides: Parameters<typeof synthesisRequest>[0] = {}): Promise<PcmAudio> => {
    const audio = await speak(overrides);
    return decodeForTest(audio.audio, audio.format, audio.sampleRate);
  };

  before(async () => {
    provider = await createProvider({ workers: 2 });
    [model] = await provider.models();
    baseline = await decoded();
  });
  after(() => provider.close?.());

  it('returns a WAV file of 16-bit mono at 22,050 Hz', async () => {
    const audio = await speak({ format: 'wav' });
    expect(audio.format).to.equal('wav');
    const header = parseWavHeader(audio.audio);
    expect(header).to.include({ sampleRate: 22050, channels: 1, bitsPerSample: 16 });
    expect(header.dataBytes).to.equal(audio.audio.length - 44);
    expect(speechDurationSeconds(baseline)).to.be.within(4, 10);
  });

  it('returns raw 16-bit PCM with its sample rate', async () => {
    const audio = await speak({ format: 'pcm' });
    expect(audio).to.include({ format: 'pcm', sampleRate: 22050 });
    expect(audio.audio.length % 2).to.equal(0);
    // Made for this answer alone, in a buffer of its own: the gateway may move it instead of copying.
    expect(audio.transferable).to.equal(true);
    expect(audio.audio.byteLength).to.equal(audio.audio.buffer.byteLength);
    const pcm = await decodeForTest(audio.audio, 'pcm', audio.sampleRate);
    expectNear(durationSeconds(pcm), durationSeconds(baseline), 0.05, 'pcm vs wav duration');
  });

  it('returns MP3 frames that a decoder accepts, as long as the speech', async () => {
    const audio = await speak({ format: 'mp3' });
    expect(audio.format).to.equal('mp3');
    const frames = countMp3Frames(audio.audio);
    // MPEG-2 layer III at 22,050 Hz: 576 samples per frame.
    expectNear((frames * 576) / 22050, durationSeconds(baseline), 0.05, 'mp3 frames');
    const pcm = await decodeForTest(audio.audio, 'mp3');
    expectNear(durationSeconds(pcm), durationSeconds(baseline), 0.05, 'decoded mp3 duration');
    expectNear(rms(pcm), rms(baseline), 0.1, 'decoded mp3 level');
  });

  it('halves the speech at speed 2.0 and doubles it at 0.5 (words per minute, English)', async () => {
    const speech = speechDurationSeconds(baseline);
    expectNear(speechDurationSeconds(await decoded({ speed: 2 })), speech / 2, 0.1, 'speed 2.0');
    expectNear(speechDurationSeconds(await decoded({ speed: 0.5 })), speech * 2, 0.1, 'speed 0.5');
  });

  it('meets the gateway meaning of speed at the ends of the declared native range', async () => {
    const speech = speechDurationSeconds(baseline);
    for (const speed of [model.capabilities.speed!.min, model.capabilities.speed!.max]) {
      expectNear(speechDurationSeconds(await decoded({ speed })), speech / speed, 0.1, `speed ${speed}`);
    }
  });

  it('scales the median F0 by the pitch multiplier across the declared native range', async () => {
    const f0 = medianF0(baseline);
    expect(f0).to.be.within(70, 200);
    for (const pitch of [model.capabilities.pitch!.min, 0.85, 1.25, model.capabilities.pitch!.max]) {
      expectNear(medianF0(await decoded({ pitch })), f0 * pitch, 0.1, `pitch ${pitch}`);
    }
  });

  it('scales the level with volume: half at 0.5, louder at 2.0', async () => {
    expectNear(rms(await decoded({ volume: 0.5 })), rms(baseline) * 0.5, 0.05, 'volume 0.5');
    // 2.0 is beyond the native range (the gateway's limiter does it) yet still louder here.
    expect(rms(await decoded({ volume: 2 }))).to.be.greaterThan(rms(baseline) * 1.5);
  });

  it('speaks other languages with their own voices', async () => {
    const german = await decoded({ voice: 'de', text: 'Guten Tag, wie geht es Ihnen heute?' });
    expect(speechDurationSeconds(german)).to.be.within(1, 5);
  });

  it('reads markup characters as text instead of obeying them', async () => {
    const injected = await decoded({ text: 'wait <break time="600s"/> done' });
    expect(durationSeconds(injected)).to.be.below(10);
  });
});
