import type { EscapedInputLimit, ModelCapabilities } from '../plugin/contract';
import { codePointCount } from './code-point-count';
import { escapedSize } from './escaped-size';
import { windowedSegments } from './windowed-segments';

/**
 * Splits long text into chunks a provider accepts: at sentence boundaries first, then at
 * clause punctuation, then between words, then between user-perceived characters (a single
 * "word" longer than the limit), so a letter keeps its combining marks. Never inside a surrogate pair.
 */
export interface ChunkLimits {
  /** Most Unicode code points in one chunk. */
  readonly maxChars: number;
  /** Most UTF-8 bytes in one chunk, for providers that count bytes. */
  readonly maxBytes?: number;
  /** Most of the chunk once escaped as XML, for providers that count the SSML they are sent. */
  readonly maxEscaped?: EscapedInputLimit;
}

/** A model's limits as the splitter takes them. */
export function chunkLimitsOf(capabilities: ModelCapabilities): ChunkLimits {
  return { maxChars: capabilities.maxInputChars, maxBytes: capabilities.maxInputBytes, maxEscaped: capabilities.maxEscapedInput };
}

// Made at the first long text, not at import: the first one loads ICU's break rules (10 ms or more of a start).
let sentenceSegmenter: Intl.Segmenter | undefined;
let wordSegmenter: Intl.Segmenter | undefined;
let graphemeSegmenter: Intl.Segmenter | undefined;
/**
 * After clause punctuation: Western marks only where a space follows (`1,500` and `10:30` are not
 * clauses), CJK forms (written without spaces) always. Zero-width, so no character is lost or added.
 * The look-ahead comes first: the look-behind then runs only before a non-space, so each run of
 * spaces is scanned once (tried at every position, 10,000 spaces took a fifth of a second).
 */
const CLAUSE_END = /(?=\S)(?<=[,;:\u2013\u2014]\s+|[\u3001\uFF0C\uFF1B\uFF1A]\s*)/u;
const encoder = new TextEncoder();

/** Whether `text` is within the model's limits, in code points and (when it has them) bytes and escaped size. */
export function fitsWithin(text: string, limits: ChunkLimits): boolean {
  return (
    codePointCount(text) <= limits.maxChars &&
    (limits.maxBytes === undefined || encoder.encode(text).length <= limits.maxBytes) &&
    (limits.maxEscaped === undefined || escapedSize(text, limits.maxEscaped.unit) <= limits.maxEscaped.max)
  );
}

/** Breaks one piece that does not fit into smaller pieces, trying each granularity in turn. */
function breakDown(piece: string, limits: ChunkLimits, level: number): string[] {
  if (fitsWithin(piece, limits)) return [piece];
  const levels: ((text: string) => string[])[] = [
    (text) => windowedSegments((sentenceSegmenter ??= new Intl.Segmenter(undefined, { granularity: 'sentence' })), text),
    (text) => text.split(CLAUSE_END),
    // Between whitespace-separated words, so punctuation stays with its word...
    (text) => text.split(/(?<=\s)(?=\S)/u),
    // ...then by dictionary word boundaries, for scripts written without spaces.
    (text) => windowedSegments((wordSegmenter ??= new Intl.Segmenter(undefined, { granularity: 'word' })), text),
    // ...then between characters as a reader sees them (a letter with its accents, a jamo
    // syllable, an emoji sequence): a mark cut from its letter is read alone, or not at all...
    (text) => windowedSegments((graphemeSegmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' })), text),
    // ...and only a single character longer than the limit between code points.
    (text) => [...text],
  ];
  for (let next = level; next < levels.length; next += 1) {
    const parts = levels[next](piece);
    if (parts.length > 1) return pack(parts.flatMap((part) => breakDown(part, limits, next + 1)), limits);
  }
  return [...piece];
}

/** Bytes of `text` in UTF-8, as TextEncoder writes it (a lone surrogate as U+FFFD, three bytes). */
const utf8Length = (text: string): number => Buffer.byteLength(text, 'utf8');

/**
 * Greedily joins consecutive pieces while the result still fits. The chunk's size is kept as a
 * running count: measuring the whole chunk again for each piece made 10,000 one-character pieces
 * cost 10,000 times a chunk's length. Pieces never split a surrogate pair, so counts add up.
 */
function pack(pieces: readonly string[], limits: ChunkLimits): string[] {
  const chunks: string[] = [];
  let current = '';
  let characters = 0;
  let bytes = 0;
  let escaped = 0;
  const { maxBytes, maxEscaped } = limits;
  for (const piece of pieces) {
    const pieceCharacters = codePointCount(piece);
    const pieceBytes = maxBytes === undefined ? 0 : utf8Length(piece);
    const pieceEscaped = maxEscaped === undefined ? 0 : escapedSize(piece, maxEscaped.unit);
    const overflows =
      characters + pieceCharacters > limits.maxChars ||
      (maxBytes !== undefined && bytes + pieceBytes > maxBytes) ||
      (maxEscaped !== undefined && escaped + pieceEscaped > maxEscaped.max);
    if (current.length > 0 && overflows) {
      chunks.push(current);
      current = '';
      characters = 0;
      bytes = 0;
      escaped = 0;
    }
    current += piece;
    characters += pieceCharacters;
    bytes += pieceBytes;
    escaped += pieceEscaped;
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
