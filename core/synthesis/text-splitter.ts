import { codePointCount } from './code-point-count';

/**
 * Splits long text into chunks a provider accepts: at sentence boundaries first, then at
 * clause punctuation, then between words, and only as a last resort between code points
 * (a single "word" longer than the limit). Never inside a surrogate pair.
 */
export interface ChunkLimits {
  /** Most Unicode code points in one chunk. */
  readonly maxChars: number;
  /** Most UTF-8 bytes in one chunk, for providers that count bytes. */
  readonly maxBytes?: number;
}

// Made at the first long text, not at import: the first one loads ICU's break rules (10 ms or more of a start).
let sentenceSegmenter: Intl.Segmenter | undefined;
let wordSegmenter: Intl.Segmenter | undefined;
/**
 * After clause punctuation: Western marks only where a space follows (`1,500` and `10:30` are not
 * clauses), CJK forms (written without spaces) always. Zero-width, so no character is lost or added.
 */
const CLAUSE_END = /(?<=[,;:\u2013\u2014]\s+|[\u3001\uFF0C\uFF1B\uFF1A]\s*)(?=\S)/u;
const encoder = new TextEncoder();

/** Whether `text` is within the model's limits, in code points and (when it has one) bytes. */
export function fitsWithin(text: string, limits: ChunkLimits): boolean {
  return codePointCount(text) <= limits.maxChars && (limits.maxBytes === undefined || encoder.encode(text).length <= limits.maxBytes);
}

/** Breaks one piece that does not fit into smaller pieces, trying each granularity in turn. */
function breakDown(piece: string, limits: ChunkLimits, level: number): string[] {
  if (fitsWithin(piece, limits)) return [piece];
  const levels: ((text: string) => string[])[] = [
    (text) => [...(sentenceSegmenter ??= new Intl.Segmenter(undefined, { granularity: 'sentence' })).segment(text)].map((segment) => segment.segment),
    (text) => text.split(CLAUSE_END),
    // Between whitespace-separated words, so punctuation stays with its word...
    (text) => text.split(/(?<=\s)(?=\S)/u),
    // ...then by dictionary word boundaries, for scripts written without spaces.
    (text) => [...(wordSegmenter ??= new Intl.Segmenter(undefined, { granularity: 'word' })).segment(text)].map((segment) => segment.segment),
    (text) => [...text],
  ];
  for (let next = level; next < levels.length; next += 1) {
    const parts = levels[next](piece);
    if (parts.length > 1) return pack(parts.flatMap((part) => breakDown(part, limits, next + 1)), limits);
  }
  return [...piece];
}

/** Greedily joins consecutive pieces while the result still fits. */
function pack(pieces: readonly string[], limits: ChunkLimits): string[] {
  const chunks: string[] = [];
  let current = '';
  for (const piece of pieces) {
    if (current.length > 0 && !fitsWithin(current + piece, limits)) {
      chunks.push(current);
      current = '';
    }
    current += piece;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}

/** Returns the chunks in order; whitespace-only chunks are dropped, the rest trimmed. */
export function splitText(text: string, limits: ChunkLimits): string[] {
  if (limits.maxChars < 1) throw new RangeError('maxChars must be at least 1');
  return breakDown(text, limits, 0)
    .map((chunk) => chunk.trim())
    .filter((chunk) => chunk.length > 0);
}
