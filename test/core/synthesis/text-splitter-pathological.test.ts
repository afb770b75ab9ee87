import { expect } from 'chai';
import * as codePointCountModule from '../../../core/synthesis/code-point-count';
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

const withoutWhitespace = (text: string): string => text.replace(/\s+/gu, '');

/** The module's export as the compiled splitter reads it on each call, so a test may wrap it. */
const codePointCounting = codePointCountModule as { codePointCount: (text: string) => number };

/**
 * The splitter's work while `run` runs, counted rather than timed (tests never time): the
 * characters of input behind each segment Intl.Segmenter hands out (V8 pays about its whole
 * input per segment), and the characters measured by codePointCount.
 */
function workOf(run: () => void): { segmenterCharacters: number; measuredCharacters: number } {
  const work = { segmenterCharacters: 0, measuredCharacters: 0 };
  const segment = Intl.Segmenter.prototype.segment;
  const measure = codePointCounting.codePointCount;
  Intl.Segmenter.prototype.segment = function (this: Intl.Segmenter, input: string) {
    const segments = segment.call(this, input);
    return {
      *[Symbol.iterator]() {
        for (const each of segments) {
          work.segmenterCharacters += input.length;
          yield each;
        }
      },
    } as unknown as Intl.Segments;
  };
  codePointCounting.codePointCount = (text: string) => {
    work.measuredCharacters += text.length;
    return measure(text);
  };
  try {
    run();
  } finally {
    Intl.Segmenter.prototype.segment = segment;
    codePointCounting.codePointCount = measure;
  }
  return work;
}

describe('core: splitting pathological 10,000-character texts', () => {
  for (const [label, text] of Object.entries(PATHOLOGICAL)) {
    for (const limits of [{ maxChars: 2000 }, { maxChars: 1500, maxBytes: 2048 }, { maxChars: 60 }]) {
      it(`splits ${label} for ${JSON.stringify(limits)} losing nothing, with work linear in its length`, () => {
        let chunks: string[] = [];
        const work = workOf(() => (chunks = splitText(text, limits)));
        expect(withoutWhitespace(chunks.join(''))).to.equal(withoutWhitespace(text));
        // Before: a whole 10,000-character input per segment (10^8), and each chunk measured again
        // per piece added (10^7). The bounds are per character of the text; the time is the bench's
        // (`npm run bench -- text`, which also covers the clause pattern's look-behind).
        expect(work.segmenterCharacters, 'segmenter input per segment').to.be.below(1_024 * text.length);
        expect(work.measuredCharacters, 'characters measured').to.be.below(20 * text.length);
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
