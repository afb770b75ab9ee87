import { expect } from 'chai';
import { letterCount } from '../../../core/synthesis/letter-count';

describe('core/synthesis letterCount', () => {
  /** The plain definition: every letter or digit matched on its own. */
  const matched = (text: string) => text.match(/[\p{L}\p{N}]/gu)?.length ?? 0;

  it('counts the letters and digits of any script as code points, as matching each one does', () => {
    const texts = [
      '',
      '   ...!?',
      'Hello from the benchmark. The stand-in answers the same speech every time.',
      'Ça coûte 12,50 € — naïve façade',
      '東京は晴れ、気温は２３度です。',
      'Привет, мир! 2026',
      'emoji 😀🎉 are not letters',
      'astral letters 𝒜𝒷𝒸 and digits 𝟙𝟚',
      'a lone surrogate \ud800 and \udc00 between letters',
      'مرحبا بالعالم ١٢٣',
    ];
    for (const text of texts) expect(letterCount(text), JSON.stringify(text)).to.equal(matched(text));
    expect(letterCount('astral 𝒜𝒷')).to.equal(8);
  });
});
