/**
 * V8's Intl.Segmenter spends time in proportion to its whole input on every segment it hands
 * out, so a text of many tiny segments (10,000 emoji, punctuation, one-letter lines) held the
 * event loop for seconds. Reading the text a window at a time bounds that cost by the window.
 */
const WINDOW = 512;
/**
 * ICU decides a boundary by what follows it; a boundary is kept only where the window still
 * holds this many characters after it (the rest is read again in the next window).
 */
const LOOK_AHEAD = 64;

/**
 * The segments of `text`, as `[...segmenter.segment(text)]` gives them, read a window at a time.
 * Where ICU would look further than LOOK_AHEAD to place a boundary (rare sentence rules), one
 * may differ: only a split point moves, every character stays.
 */
export function windowedSegments(segmenter: Intl.Segmenter, text: string): string[] {
  const segments: string[] = [];
  let start = 0;
  let window = WINDOW;
  while (start < text.length) {
    if (start + window >= text.length) {
      for (const { segment } of segmenter.segment(text.slice(start))) segments.push(segment);
      break;
    }
    let taken = 0;
    for (const { segment, index } of segmenter.segment(text.slice(start, start + window))) {
      if (index + segment.length > window - LOOK_AHEAD) break;
      segments.push(segment);
      taken = index + segment.length;
    }
    // One segment longer than the window: a wider window until its end (or the text's) is in it.
    if (taken === 0) {
      window *= 2;
      continue;
    }
    start += taken;
    window = WINDOW;
  }
  return segments;
}
