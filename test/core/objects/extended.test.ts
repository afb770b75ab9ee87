import { expect } from 'chai';
import { extended } from '../../../core';

describe('core/objects: extended', () => {
  it('is the base with the additions, the additions winning, and leaves both as they were', () => {
    const base = { model: 'tts-1', format: 'mp3', cache: undefined as string | undefined };
    const additions = { cache: 'hit', sampleRate: 24000 };
    const result = extended(base, additions);
    expect(result).to.deep.equal({ model: 'tts-1', format: 'mp3', cache: 'hit', sampleRate: 24000 });
    expect(result).to.not.equal(base);
    expect(base).to.deep.equal({ model: 'tts-1', format: 'mp3', cache: undefined });
    expect(additions).to.deep.equal({ cache: 'hit', sampleRate: 24000 });
  });

  it('copies own fields only, as a spread does', () => {
    const base = Object.assign(Object.create({ inherited: true }) as object, { own: 1 });
    expect(extended(base, { added: 2 })).to.deep.equal({ own: 1, added: 2 });
  });
});
