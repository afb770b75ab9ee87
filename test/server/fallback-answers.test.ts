import { expect } from 'chai';
import { ModelRouter, type SynthesisRequest } from '../../core';
import { fallbackAnswersWhileNeeded } from '../../server/fallback-answers';
import { appliedPlan } from '../support/applied-plan';

describe('server fallbackAnswersWhileNeeded (which remembered answers a fallback route still gives)', () => {
  const router = new ModelRouter(
    [
      { name: 'narrator', strategy: 'fallback', targets: [{ model: 'kokoro', voices: { calm: 'af_sky' } }, { model: 'espeak-ng', voices: { calm: 'en-gb' } }] },
      { name: 'mixed', strategy: 'loadbalance', targets: [{ model: 'kokoro', voices: {} }, { model: 'espeak-ng', voices: {} }] },
    ],
    (model) => model === 'kokoro' || model === 'espeak-ng',
  );
  const request = (model: string, voice: string): SynthesisRequest => ({ model, voice, text: 'Hello.', speed: 1, pitch: 1, volume: 1, format: 'mp3' });
  const remembered = (servedBy: string) => ({ format: 'mp3' as const, applied: appliedPlan(), provider: servedBy.split('/')[0], servedBy, instructionsIgnored: false });

  it("gives a fallback target's answer only while the preferred target's provider refuses calls", () => {
    const asked: string[] = [];
    let down = true;
    const answersStill = fallbackAnswersWhileNeeded(router, (model) => {
      asked.push(model);
      return down;
    });
    expect(answersStill(request('narrator', 'calm'), remembered('espeak-ng/en-gb'))).to.equal(true);
    down = false;
    expect(answersStill(request('narrator', 'calm'), remembered('espeak-ng/en-gb'))).to.equal(false);
    expect(asked).to.deep.equal(['kokoro', 'kokoro']);
  });

  it("always gives the preferred target's own answer, and any answer of a load-balanced route or a real model", () => {
    const answersStill = fallbackAnswersWhileNeeded(router, () => false);
    expect(answersStill(request('narrator', 'calm'), remembered('kokoro/af_sky'))).to.equal(true);
    expect(answersStill(request('mixed', 'calm'), remembered('espeak-ng/calm'))).to.equal(true);
    expect(answersStill(request('espeak-ng', 'en-us'), remembered('espeak-ng/en-us'))).to.equal(true);
  });
});
