import { parseUpstreamJson, upstreamAudio, upstreamFetch } from '../../core';
import { PROVIDER, readCartesiaError } from './errors';
import type { CartesiaOptions } from './options-schema';
import type { TtsBody } from './request-body';


function headers(options: CartesiaOptions): Record<string, string> {
  return { authorization: `Bearer ${options.apiKey}`, 'cartesia-version': options.version };
}

const root = (options: CartesiaOptions) => options.baseUrl.replace(/\/+$/, '');

/** `POST /tts/bytes`: the whole clip in one answer. */
export async function requestSpeech(options: CartesiaOptions, fetchFunction: typeof fetch, body: TtsBody, signal: AbortSignal): Promise<Uint8Array> {
  const response = await upstreamFetch({
    provider: PROVIDER,
    fetch: fetchFunction,
    url: `${root(options)}/tts/bytes`,
    method: 'POST',
    headers: { ...headers(options), 'content-type': 'application/json' },
    body: JSON.stringify(body),
    timeoutMs: options.timeoutMs,
    signal,
    secrets: [options.apiKey],
    mapError: readCartesiaError,
  });
  return upstreamAudio(PROVIDER, response);
}

/** `GET /voices?limit=&starting_after=`: one page of the voice list. */
export async function requestVoicePage<T>(options: CartesiaOptions, fetchFunction: typeof fetch, query: URLSearchParams, signal?: AbortSignal): Promise<T> {
  const response = await upstreamFetch({
    provider: PROVIDER,
    fetch: fetchFunction,
    url: `${root(options)}/voices?${query.toString()}`,
    headers: headers(options),
    timeoutMs: options.timeoutMs,
    signal,
    secrets: [options.apiKey],
    mapError: readCartesiaError,
  });
  return parseUpstreamJson<T>(PROVIDER, response.body);
}
