import { expect } from 'chai';
import { formatApplied } from '../../../server/streaming/applied-header';

describe('server X-TTS-Applied', () => {
  it('writes who applied each setting, the format and the calls, in a fixed order', () => {
    expect(formatApplied({ speed: 'native', pitch: 'dsp', volume: 'default', format: 'transcoded', chunks: 3 })).to.equal(
      'speed=native; pitch=dsp; volume=default; format=transcoded; chunks=3',
    );
  });
});
