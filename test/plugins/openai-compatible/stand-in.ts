import type { AudioFormat } from '../../../core';
import type { OpenAiCompatibleOptions } from '../../../plugins/openai-compatible';
import { conformanceAudio, kokoroOptions } from './harness';

/** A Kokoro-FastAPI server's options, with its models served under a `kokoro-` prefix. */
export const standInOptions: OpenAiCompatibleOptions = { ...kokoroOptions, modelPrefix: 'kokoro' };

/** A Kokoro-FastAPI stand-in: model and voice lists, and recorded speech per response_format. */
export function standInFetch(): typeof fetch {
  const audio = conformanceAudio();
  const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
  return (async (input: string | URL | Request, init?: RequestInit) => {
    init?.signal?.throwIfAborted();
    const path = new URL(String(input)).pathname;
    if (path === '/v1/models') return json({ object: 'list', data: [{ id: 'kokoro', object: 'model' }, { id: 'tts-1', object: 'model' }] });
    if (path === '/v1/audio/voices') return json({ voices: ['af_bella', 'bm_george'] });
    if (path === '/v1/audio/speech' && init?.method === 'POST') {
      const body = JSON.parse(String(init.body)) as { response_format: AudioFormat };
      return new Response(audio[body.response_format], { status: 200, headers: { 'content-type': 'application/octet-stream' } });
    }
    return new Response('{"detail":"Not Found"}', { status: 404 });
  }) as typeof fetch;
}
