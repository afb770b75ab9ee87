const HIGH_SURROGATE_FIRST = 0xd800;
const HIGH_SURROGATE_LAST = 0xdbff;
const LOW_SURROGATE_FIRST = 0xdc00;
const LOW_SURROGATE_LAST = 0xdfff;

/**
 * The length of `text` in code points, as `[...text].length` gives it (the unit of the API's text
 * limits), without making an array of them: this runs several times a request, on texts up to
 * 10,000 characters.
 */
export function codePointCount(text: string): number {
  let count = text.length;
  for (let index = 1; index < text.length; index += 1) {
    const unit = text.charCodeAt(index);
    if (unit < LOW_SURROGATE_FIRST || unit > LOW_SURROGATE_LAST) continue;
    // A pair is one code point; a lone surrogate counts on its own, as the string iterator does.
    const before = text.charCodeAt(index - 1);
    if (before >= HIGH_SURROGATE_FIRST && before <= HIGH_SURROGATE_LAST) count -= 1;
  }
  return count;
}
