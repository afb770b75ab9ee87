import { expect } from 'chai';
import { formatApplied } from '../../../server/streaming/applied-header';

describe('server X-TTS-Applied', () => {
  it('writes who applied each setting, the format and the calls, in a fixed order', () => {
    expect(formatApplied({ speed: 'native', pitch: 'dsp', volume: 'default', format: 'transcoded', chunks: 3 })).to.equal(
      'speed=native; pitch=dsp; volume=default; format=transcoded; chunks=3',
    );
  });

  it('names the container a mislabelled provider answer really was, last', () => {
    expect(formatApplied({ speed: 'default', pitch: 'default', volume: 'default', format: 'transcoded', chunks: 1, received: 'wav' })).to.equal(
      'speed=default; pitch=default; volume=default; format=transcoded; chunks=1; received=wav',
    );
  });
});
