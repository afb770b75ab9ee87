import { expect } from 'chai';
import { decodeAudioContent, isStrictBase64 } from '../../../plugins/google/audio-content';

describe('google plugin: audioContent decoding', () => {
  it('accepts whole quads with up to two trailing = and nothing else', () => {
    expect(isStrictBase64('SUQz')).to.equal(true);
    expect(isStrictBase64('SUQ=')).to.equal(true);
    expect(isStrictBase64('SU==')).to.equal(true);
    expect(isStrictBase64('S===')).to.equal(false);
    expect(isStrictBase64('SU=z')).to.equal(false);
    expect(isStrictBase64('SUQ')).to.equal(false);
    expect(isStrictBase64('SU-_')).to.equal(false);
    expect(isStrictBase64('SUQz\n')).to.equal(false);
  });

  it('decodes the bytes and refuses an empty or missing field', () => {
    expect(Buffer.from(decodeAudioContent('SUQz')).toString('latin1')).to.equal('ID3');
    expect(() => decodeAudioContent('')).to.throw('no "audioContent"');
    expect(() => decodeAudioContent(undefined)).to.throw('no "audioContent"');
  });
});
