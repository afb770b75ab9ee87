const NOT_LETTER_OR_DIGIT = /[^\p{L}\p{N}]+/gu;
const LOW_SURROGATE_FIRST = 0xdc00;
const LOW_SURROGATE_LAST = 0xdfff;

/**
 * The letters and digits (any script) of a text, counted as code points: what speech rates are
 * given in. Counted on one stripped copy rather than an array of every letter (this runs on
 * each request).
 */
export function letterCount(text: string): number {
  const letters = text.replace(NOT_LETTER_OR_DIGIT, '');
  let count = letters.length;
  // What is left is whole code points: a letter beyond the first plane takes two code units.
  for (let index = 0; index < letters.length; index += 1) {
    const unit = letters.charCodeAt(index);
    if (unit >= LOW_SURROGATE_FIRST && unit <= LOW_SURROGATE_LAST) count -= 1;
  }
  return count;
}
