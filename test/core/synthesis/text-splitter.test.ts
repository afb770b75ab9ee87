import { expect } from 'chai';
import { splitText } from '../../../core/synthesis/text-splitter';

const codePoints = (text: string) => [...text].length;

describe('core/synthesis splitText', () => {
  it('keeps text that fits as one chunk', () => {
    expect(splitText('Hello there. General Kenobi.', { maxChars: 100 })).to.deep.equal(['Hello there. General Kenobi.']);
  });

  it('splits at sentence boundaries first', () => {
    const chunks = splitText('One sentence here. Another one there. A third.', { maxChars: 20 });
    expect(chunks).to.deep.equal(['One sentence here.', 'Another one there.', 'A third.']);
  });

  it('falls back to clauses, then words, never breaking a word', () => {
    const chunks = splitText('alpha beta gamma, delta epsilon zeta; eta theta iota kappa', { maxChars: 18 });
    for (const chunk of chunks) expect(codePoints(chunk)).to.be.at.most(18);
    expect(chunks.join(' ').split(/\s+/)).to.deep.equal('alpha beta gamma, delta epsilon zeta; eta theta iota kappa'.split(/\s+/));
    expect(chunks[0]).to.equal('alpha beta gamma,');
  });

  it('counts code points and never splits a surrogate pair', () => {
    const text = '😀'.repeat(10);
    const chunks = splitText(text, { maxChars: 3 });
    expect(chunks.join('')).to.equal(text);
    for (const chunk of chunks) {
      expect(codePoints(chunk)).to.be.at.most(3);
      expect(chunk).to.not.match(/^[\uDC00-\uDFFF]|[\uD800-\uDBFF]$/);
    }
  });

  it('respects a byte limit for multi-byte scripts', () => {
    const text = '你好世界。'.repeat(50);
    const chunks = splitText(text, { maxChars: 5000, maxBytes: 60 });
    for (const chunk of chunks) expect(new TextEncoder().encode(chunk).length).to.be.at.most(60);
    expect(chunks.join('')).to.equal(text);
  });

  it('splits 10,000 characters for a 4,096 limit into full sentences, losing nothing', () => {
    const sentence = 'The quick brown fox jumps over the lazy dog. ';
    const text = sentence.repeat(Math.ceil(10_000 / sentence.length)).slice(0, 10_000);
    const chunks = splitText(text, { maxChars: 4096 });
    expect(chunks.length).to.equal(3);
    for (const chunk of chunks.slice(0, -1)) expect(chunk.endsWith('.')).to.equal(true);
    expect(chunks.join(' ').replace(/\s+/g, ' ')).to.equal(text.trim().replace(/\s+/g, ' '));
  });

  it('drops whitespace-only pieces', () => {
    expect(splitText('   Hi.    \n\n   ', { maxChars: 3 })).to.deep.equal(['Hi.']);
  });
});
