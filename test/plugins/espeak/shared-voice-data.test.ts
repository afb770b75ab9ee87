import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { loadEspeakEngine } from '../../../plugins/espeak/engine';
import { SharedVoiceData, voiceDataPath } from '../../../plugins/espeak/shared-voice-data';

const PROSODY = { rate: 175, pitch: 50, range: 50, gain: 1 };

describe('espeak shared voice data', function () {
  this.timeout(60_000);

  it('is the package data file, read once while it is held', () => {
    const voiceData = new SharedVoiceData();
    const first = voiceData.get();
    expect(first).to.be.instanceOf(SharedArrayBuffer);
    expect(Buffer.from(new Uint8Array(first)).equals(readFileSync(voiceDataPath()))).to.equal(true);
    expect(voiceData.get()).to.equal(first);
  });

  it('gives an engine that speaks exactly as one with its own copy', async () => {
    const shared = await loadEspeakEngine(new SharedVoiceData().get());
    const own = await loadEspeakEngine();
    const text = 'The quick brown fox jumps over the lazy dog.';
    const fromShared = shared.synthesize('gmw/en-US', text, PROSODY, () => false);
    const fromOwn = own.synthesize('gmw/en-US', text, PROSODY, () => false);
    expect(fromShared.samples.length).to.be.greaterThan(10_000);
    expect(Buffer.from(fromShared.samples.buffer).equals(Buffer.from(fromOwn.samples.buffer))).to.equal(true);
    expect(shared.listVoices().length).to.equal(own.listVoices().length);
  });
});
