import { parseUpstreamJson, upstreamAudio, upstreamAudioStream, upstreamFetch, upstreamStream, type UpstreamRequest } from '../../core';
import { PROVIDER, readCartesiaError } from './errors';
import type { CartesiaOptions } from './options-schema';
import type { TtsBody } from './request-body';


function headers(options: CartesiaOptions): Record<string, string> {
  return { authorization: `Bearer ${options.apiKey}`, 'cartesia-version': options.version };
}

const root = (options: CartesiaOptions) => options.baseUrl.replace(/\/+$/, '');

function speechCall(options: CartesiaOptions, fetchFunction: typeof fetch, body: TtsBody, signal: AbortSignal): UpstreamRequest {
  return {
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
  };
}

/** `POST /tts/bytes`: the whole clip. */
export async function requestSpeech(options: CartesiaOptions, fetchFunction: typeof fetch, body: TtsBody, signal: AbortSignal): Promise<Uint8Array> {
  return upstreamAudio(PROVIDER, await upstreamFetch(speechCall(options, fetchFunction, body, signal)));
}

/**
 * The same call read as it arrives: `/tts/bytes` streams the audio as it is generated, in one
 * HTTP body ("All three endpoints stream audio as it is produced", docs.cartesia.ai, Compare TTS
 * endpoints). The SSE endpoint carries the same audio base64-encoded in JSON events, only worth it
 * for timestamps, and raw containers only; the official SDK's `tts.bytes` is this call.
 */
export async function streamSpeech(options: CartesiaOptions, fetchFunction: typeof fetch, body: TtsBody, signal: AbortSignal): Promise<AsyncIterable<Uint8Array>> {
  return upstreamAudioStream(PROVIDER, await upstreamStream(speechCall(options, fetchFunction, body, signal)));
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
