import type { ElevenLabsOptions } from '../../../plugins/elevenlabs';
import { baseOptions } from './harness';
import { fixtureFetch } from '../../support/fixture-fetch';

/** Voices listed two per page, so paging is exercised. */
export const standInOptions: ElevenLabsOptions = { ...baseOptions, voicePageSize: 2 };

/** ElevenLabs' model list, paged voices and speech (mp3, pcm), answered from the recorded fixtures. */
export function standInFetch(): typeof fetch {
  return fixtureFetch('elevenlabs', ['models', 'voices-paged', 'speech-mp3', 'speech-pcm-speed']);
}
