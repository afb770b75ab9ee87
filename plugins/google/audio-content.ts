import { badUpstreamResponse } from '../../core';
import { PROVIDER } from './errors';

/** Whether a character code is in the standard base64 alphabet (A-Z a-z 0-9 + /). */
function isBase64Letter(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || (code >= 48 && code <= 57) || code === 43 || code === 47;
}

/**
 * Strict standard base64 (whole quads, at most two `=` at the end), checked in one linear pass:
 * a regular expression over the whole text overflows the stack past ~4.5 million characters,
 * which one minute of LINEAR16 exceeds.
 */
export function isStrictBase64(text: string): boolean {
  if (text.length % 4 !== 0) return false;
  const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  const end = text.length - padding;
  for (let index = 0; index < end; index += 1) {
    if (!isBase64Letter(text.charCodeAt(index))) return false;
  }
  return true;
}

/** The audio bytes of a `text:synthesize` answer's `audioContent` (base64 in the JSON body). */
export function decodeAudioContent(content: unknown): Uint8Array {
  if (typeof content !== 'string' || content.length === 0) throw badUpstreamResponse(PROVIDER, 'no "audioContent" in the answer');
  if (!isStrictBase64(content)) throw badUpstreamResponse(PROVIDER, '"audioContent" is not valid base64');
  return new Uint8Array(Buffer.from(content, 'base64'));
}
