import type { AudioFormat } from '../../../core';
import type { OpenAiOptions } from '../../../plugins/openai';
import { baseOptions, conformanceAudio } from './harness';

const CONTENT_TYPES: Record<AudioFormat, string> = { mp3: 'audio/mpeg', opus: 'audio/opus', aac: 'audio/aac', flac: 'audio/flac', wav: 'audio/wav', pcm: 'audio/pcm' };

/** Options pointing the plugin at the stand-in's host. */
export const standInOptions: OpenAiOptions = baseOptions;

/** Answers `POST /v1/audio/speech` with recorded speech in the requested response_format. */
export function standInFetch(): typeof fetch {
  const audio = conformanceAudio();
  return (async (input: string | URL | Request, init?: RequestInit) => {
    init?.signal?.throwIfAborted();
    const url = String(input);
    if (!url.endsWith('/v1/audio/speech') || init?.method !== 'POST') return new Response('{"error":{"message":"not found"}}', { status: 404 });
    const body = JSON.parse(String(init.body)) as { response_format: AudioFormat };
    return new Response(audio[body.response_format], { status: 200, headers: { 'content-type': CONTENT_TYPES[body.response_format] } });
  }) as typeof fetch;
}
