import { expect } from 'chai';
import { splitText } from '../../../core/synthesis/text-splitter';
import { windowedSegments } from '../../../core/synthesis/windowed-segments';

/**
 * Texts a client may send (10,000 code points, something speakable) that made the splitter's
 * cost grow with the square of their length: it runs on the event loop, so each such request
 * held every other request for up to seconds.
 */
const PATHOLOGICAL: Readonly<Record<string, string>> = {
  'emoji (one word segment each)': '😀'.repeat(10_000),
  'exclamation marks': '!'.repeat(10_000),
  'CJK full stops': '。'.repeat(10_000),
  'one-letter lines (a sentence each)': 'a\n'.repeat(5_000),
  'a comma before 9,997 spaces': `a,${' '.repeat(9_997)}b`,
  'a letter run with no break': 'a'.repeat(10_000),
};

/** The best of three runs, in milliseconds: the least disturbed by other work on the machine. */
function bestTimeMs(run: () => void): number {
  let best = Infinity;
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const started = process.hrtime.bigint();
    run();
    best = Math.min(best, Number(process.hrtime.bigint() - started) / 1e6);
  }
  return best;
}

const withoutWhitespace = (text: string): string => text.replace(/\s+/gu, '');

describe('core: splitting pathological 10,000-character texts', () => {
  for (const [label, text] of Object.entries(PATHOLOGICAL)) {
    for (const limits of [{ maxChars: 2000 }, { maxChars: 1500, maxBytes: 2048 }, { maxChars: 60 }]) {
      it(`splits ${label} for ${JSON.stringify(limits)} losing nothing, in linear time`, () => {
        const chunks = splitText(text, limits);
        expect(withoutWhitespace(chunks.join(''))).to.equal(withoutWhitespace(text));
        // Before: 0.2 to 3 s of the event loop for one text; linear, a few milliseconds. The bound
        // is wide on purpose, so that a busy machine does not fail it.
        expect(bestTimeMs(() => splitText(text, limits))).to.be.below(100);
      });
    }
  }
});

describe('core: windowedSegments', () => {
  const sentences = new Intl.Segmenter('en', { granularity: 'sentence' });
  const words = new Intl.Segmenter('en', { granularity: 'word' });
  const plain = (segmenter: Intl.Segmenter, text: string) => [...segmenter.segment(text)].map((segment) => segment.segment);
  const prose = 'Dr. Smith arrived at 10:30 a.m. on Jan. 5th. "Really?" she asked. It cost $1,500,000 (about €1.4M)! ';
  const texts = {
    prose: prose.repeat(60),
    'a word longer than the window': `${'x'.repeat(3000)} and then ${'y'.repeat(700)}.`,
    'Japanese without spaces': '今日は良い天気ですね。明日も晴れるでしょう。'.repeat(200),
    'emoji with joiners': '👨‍👩‍👧 family, 🏳️‍🌈 flag. '.repeat(300),
  };
  for (const [label, text] of Object.entries(texts)) {
    it(`gives the segments of ${label} as one pass over the whole text does`, () => {
      expect(windowedSegments(sentences, text)).to.deep.equal(plain(sentences, text));
      expect(windowedSegments(words, text)).to.deep.equal(plain(words, text));
    });
  }
});
