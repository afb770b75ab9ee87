import { expect } from 'chai';
import { splitForStreaming } from '../../../core/synthesis/stream-chunks';
import { splitText } from '../../../core/synthesis/text-splitter';

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** The offsets in `text` where a user-perceived character starts (and its end). */
function graphemeBoundaries(text: string): Set<number> {
  const boundaries = new Set([...graphemes.segment(text)].map((segment) => segment.index));
  boundaries.add(text.length);
  return boundaries;
}

/** Where each chunk ends in `text`: chunks are the text's own stretches, in order. */
function chunkEnds(text: string, chunks: readonly string[]): number[] {
  let cursor = 0;
  return chunks.map((chunk) => {
    cursor = text.indexOf(chunk, cursor) + chunk.length;
    return cursor;
  });
}

/**
 * Words longer than a chunk, written with combining marks: a letter and its accent, a Devanagari
 * consonant and its vowel sign, a Hangul syllable spelled in jamo. A cut between code points put
 * the mark at the start of the next provider call, where it is read alone (or not at all).
 */
const LONG_WORDS: Readonly<Record<string, string>> = {
  'Vietnamese in decomposed form': 'Vie\u0323\u0302t'.repeat(40),
  'Hindi written without spaces': 'नमस्तेदुनिया'.repeat(30),
  'Korean in conjoining jamo': '\u1112\u1161\u11AB\u1100\u1173\u11AF'.repeat(40),
  'a family emoji run': '👨‍👩‍👧'.repeat(40),
};

describe('core/synthesis splitting inside a word never separates a character from its marks', () => {
  for (const [label, text] of Object.entries(LONG_WORDS)) {
    for (const maxChars of [7, 60, 100]) {
      it(`cuts ${label} at character boundaries for ${maxChars} code points, losing nothing`, () => {
        const chunks = splitText(text, { maxChars });
        expect(chunks.join('')).to.equal(text);
        for (const chunk of chunks) expect([...chunk].length).to.be.at.most(maxChars);
        const boundaries = graphemeBoundaries(text);
        for (const end of chunkEnds(text, chunks)) expect(boundaries.has(end), `a cut at ${end}`).to.equal(true);
      });
    }

    it(`streams ${label} in chunks that start and end at character boundaries`, () => {
      // One letter before the word moves its cuts off the repeat's own period.
      const streamed = `Hello. x${text} Goodbye.`;
      const chunks = splitForStreaming(streamed, { maxChars: 2000 });
      expect(chunks.join('').replace(/\s+/g, '')).to.equal(streamed.replace(/\s+/g, ''));
      const boundaries = graphemeBoundaries(streamed);
      for (const end of chunkEnds(streamed, chunks)) expect(boundaries.has(end), `a cut at ${end}`).to.equal(true);
    });
  }
});
