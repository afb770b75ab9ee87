import { expect } from 'chai';
import { codePointCount } from '../../../core';

describe('core/synthesis codePointCount', () => {
  const texts = [
    '',
    'Hello.',
    'caf\u00e9 \u4f60\u597d',
    'emoji \u{1F600} and \u{1F469}\u200D\u{1F4BB}',
    '\u{10000}\u{10FFFF}',
    // Lone surrogates count one each, as the string iterator counts them.
    '\uD800',
    '\uDC00',
    '\uDC00\uD800',
    '\uD800\uD800\uDC00',
    '\uD800\uDC00\uDC00',
    'x\uDBFF',
  ];
  for (const text of texts) {
    it(`counts ${JSON.stringify(text)} as the string iterator does`, () => {
      expect(codePointCount(text)).to.equal([...text].length);
    });
  }
});
