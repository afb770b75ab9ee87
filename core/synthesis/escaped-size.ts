import type { EscapedInputLimit } from '../plugin/contract';
import { lengthAddedByEscaping } from '../ssml/escape-xml';
import { codePointCount } from './code-point-count';

/**
 * The size of `text` once escaped as XML character data, in code points or UTF-8 bytes. Quotes
 * count as escaped even where a plugin leaves them as they are: the measure is an upper bound,
 * never short.
 */
export function escapedSize(text: string, unit: EscapedInputLimit['unit']): number {
  return (unit === 'bytes' ? Buffer.byteLength(text, 'utf8') : codePointCount(text)) + lengthAddedByEscaping(text);
}
