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
  const pieces = splitText(text, smallest);
  const chunks: string[] = [];
  let current = '';
  let budget = smallest.maxChars;
  for (const piece of pieces) {
    const joined = current.length === 0 ? piece : `${current} ${piece}`;
    if (current.length > 0 && !fitsWithin(joined, { ...limits, maxChars: budget })) {
      chunks.push(current);
      budget = Math.min(limits.maxChars, LARGEST_CHUNK_CHARS, budget * 2);
      current = piece;
    } else {
      current = joined;
    }
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}
