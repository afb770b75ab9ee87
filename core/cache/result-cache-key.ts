import { hash } from 'node:crypto';
import type { SynthesisRequest } from '../synthesis/synthesis-request';

/**
 * The cache key of a request: everything that changes the audio, with the text's whitespace
 * normalized (runs collapsed, ends trimmed), hashed so no text is kept in the index.
 */
export function resultCacheKey(request: SynthesisRequest): string {
  const normalized = [
    request.model,
    request.voice,
    request.text.replace(/\s+/gu, ' ').trim(),
    request.speed,
    request.pitch,
    request.volume,
    request.format,
    request.sampleRate ?? null,
    request.instructions ?? null,
  ];
  return hash('sha256', JSON.stringify(normalized), 'base64url');
}
