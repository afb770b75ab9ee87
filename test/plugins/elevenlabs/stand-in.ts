import type { ElevenLabsOptions } from '../../../plugins/elevenlabs';
import { baseOptions } from './harness';
import { fixtureFetch } from '../../support/fixture-fetch';

/** Voices listed two per page, so paging is exercised. */
export const standInOptions: ElevenLabsOptions = { ...baseOptions, voicePageSize: 2 };

/**
 * ElevenLabs' model list, paged voices and speech (mp3, pcm), answered from the recorded fixtures.
 * `/v1/text-to-speech/{voice}/stream` takes the same query and body and answers the same audio
 * (sent chunked), so a streaming call is answered from the recorded speech of the plain path.
 */
export function standInFetch(): typeof fetch {
  const recorded = fixtureFetch('elevenlabs', ['models', 'voices-paged', 'speech-mp3', 'speech-pcm-speed']);
  return ((input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(String(input));
    url.pathname = url.pathname.replace(/^(\/v1\/text-to-speech\/[^/]+)\/stream$/, '$1');
    return recorded(url.toString(), init);
  }) as typeof fetch;
}
