import { expect } from 'chai';
import { pitchSetting, toEngineProsody } from '../../../plugins/espeak/request-body';

describe('espeak plugin: prosody mapping', () => {
  it('leaves every engine setting at its default for absent multipliers', () => {
    expect(toEngineProsody({})).to.deep.equal({ rate: 175, pitch: 50, range: 50, gain: 1 });
  });

  it('scales words per minute with speed', () => {
    expect(toEngineProsody({ speed: 0.75 }).rate).to.equal(131);
    expect(toEngineProsody({ speed: 1.25 }).rate).to.equal(219);
  });

  it('inverts the measured pitch table and scales the intonation range alike', () => {
    expect(pitchSetting(1)).to.equal(50);
    expect(pitchSetting(1.5)).to.equal(85);
    expect(pitchSetting(0.727)).to.equal(20);
    expect(toEngineProsody({ pitch: 1.5 }).range).to.equal(75);
  });

  it('keeps the pitch setting monotonic and inside 0..100', () => {
    let previous = -1;
    for (let multiplier = 0.4; multiplier <= 2.2; multiplier += 0.05) {
      const setting = pitchSetting(multiplier);
      expect(setting).to.be.within(0, 100).and.at.least(previous);
      previous = setting;
    }
  });

  it('turns volume into a sample gain', () => {
    expect(toEngineProsody({ volume: 0.5 }).gain).to.equal(0.5);
  });
});
