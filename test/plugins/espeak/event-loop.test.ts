import { expect } from 'chai';
import type { TtsProvider } from '../../../core';
import { LONG_TEXT, synthesisRequest, createProvider } from './harness';

describe('espeak plugin: keeps the event loop free', function () {
  this.timeout(60_000);
  let provider: TtsProvider;

  before(async () => {
    provider = await createProvider({ workers: 1 });
  });
  after(() => provider.close?.());

  it('runs timers and immediates while a 2000-character synthesis is pending', async () => {
    let settled = false;
    let ticksWhilePending = 0;
    let immediateRanWhilePending = false;
    const synthesis = provider.synthesize(synthesisRequest({ text: LONG_TEXT, format: 'mp3' })).finally(() => {
      settled = true;
    });
    setImmediate(() => {
      immediateRanWhilePending = !settled;
    });
    // A timer chain: every turn that completes before the synthesis settles proves the loop ran.
    await new Promise<void>((resolve) => {
      const tick = (): void => {
        if (settled) return resolve();
        ticksWhilePending += 1;
        setTimeout(tick, 1);
      };
      setTimeout(tick, 1);
    });
    const audio = await synthesis;
    expect(audio.audio.length).to.be.greaterThan(100_000);
    expect(immediateRanWhilePending).to.equal(true);
    expect(ticksWhilePending).to.be.at.least(3);
  });
});
