import type { EscapedInputLimit } from '../plugin/contract';
import { codePointCount } from './code-point-count';

/** What escaping adds for each character XML escapes: `&amp;` is 4 more than `&`, `&lt;` 3 more than `<`. */
const ADDED_BY_ESCAPING: Readonly<Record<string, number>> = { '&': 4, '<': 3, '>': 3, '"': 5, "'": 5 };
const ESCAPED_CHARACTERS = /[&<>"']/g;

/**
 * The size of `text` once escaped as XML character data, in code points or UTF-8 bytes (the
 * entities are ASCII, so they add as many of either). Quotes count as escaped even where a plugin
 * leaves them as they are: the measure is an upper bound, never short.
 */
export function escapedSize(text: string, unit: EscapedInputLimit['unit']): number {
  let added = 0;
  for (const found of text.matchAll(ESCAPED_CHARACTERS)) added += ADDED_BY_ESCAPING[found[0]];
  return (unit === 'bytes' ? Buffer.byteLength(text, 'utf8') : codePointCount(text)) + added;
}
