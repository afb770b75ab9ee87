import { expect } from 'chai';
import { AUDIO_FILE_NAME_PATTERN, newAudioFileName, parseAudioFileName } from '../../../core/storage/audio-file-name';

describe('core/storage audio file names', () => {
  it('are unguessable and never repeat, across the batches of random bytes they are cut from', () => {
    const randoms = new Set<string>();
    // Enough names for several batches (170 names each) and a batch boundary in the middle of none.
    for (let index = 0; index < 1000; index += 1) {
      const { random, fileName } = newAudioFileName('mp3', undefined);
      expect(fileName).to.equal(`${random}.mp3`);
      expect(fileName).to.match(AUDIO_FILE_NAME_PATTERN);
      randoms.add(random);
    }
    expect(randoms.size).to.equal(1000);
    // 192 random bits each: across 1000 names, every base64url character shows up.
    const characters = new Set([...randoms].join(''));
    expect(characters.size).to.equal(64);
  });

  it('carry the sample rate of raw pcm, and read back what they say', () => {
    const { fileName } = newAudioFileName('pcm', 24000);
    expect(parseAudioFileName(fileName)).to.deep.equal({ extension: 'pcm', sampleRate: 24000 });
    expect(parseAudioFileName(newAudioFileName('wav', undefined).fileName)).to.deep.equal({ extension: 'wav' });
    expect(() => newAudioFileName('pcm', undefined)).to.throw(/sample rate/);
    expect(() => newAudioFileName('../x', undefined)).to.throw(/extension/);
    expect(() => parseAudioFileName('../../etc/passwd')).to.throw(/no such audio file/i);
  });
});
