import { fitsWithin, splitText, type ChunkLimits } from './text-splitter';

/** The first chunk of a stream is short (a sentence or a clause), so audio starts after one short call. */
const FIRST_CHUNK_CHARS = 60;
/**
 * Later chunks double in size up to this (about 25 s of speech), so long texts need few calls
 * while the audio held for the chunks synthesized ahead stays small.
 */
const LARGEST_CHUNK_CHARS = 400;

/**
 * Splits text for streaming: a short first chunk (a sentence or a clause), then chunks that grow
 * (120, 240, 400 characters, never past the model's limits), each still ending at a sentence,
 * clause or word boundary as `splitText` cuts it.
 */
export function splitForStreaming(text: string, limits: ChunkLimits): string[] {
  const smallest = { ...limits, maxChars: Math.min(limits.maxChars, FIRST_CHUNK_CHARS) };
  const chunks: string[] = [];
  // Chunks are cut from the text itself, so what stood between two pieces (a space, or nothing
  // inside a word or in a script without spaces) stays as it was.
  let cursor = 0;
  let start = -1;
  let end = 0;
  let budget = smallest.maxChars;
  for (const piece of splitText(text, smallest)) {
    // Each piece is the text's next stretch, trimmed.
    const pieceStart = text.indexOf(piece, cursor);
    cursor = pieceStart + piece.length;
    if (start >= 0 && !fitsWithin(text.slice(start, cursor), { ...limits, maxChars: budget })) {
      chunks.push(text.slice(start, end));
      budget = Math.min(limits.maxChars, LARGEST_CHUNK_CHARS, budget * 2);
      start = pieceStart;
    } else if (start < 0) {
      start = pieceStart;
    }
    end = cursor;
  }
  if (start >= 0) chunks.push(text.slice(start, end));
  return chunks;
}
