import { parseUpstreamJson, upstreamAudio, upstreamFetch, type AudioFormat } from '../../core';
import { PROVIDER, readDeepgramError } from './errors';
import type { DeepgramOptions } from './options-schema';
import { speakBody, speakQuery } from './request-body';


function apiRoot(baseUrl: string): string {
  return baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '');
}

const authorization = (options: DeepgramOptions) => ({ authorization: `Token ${options.apiKey}` });

/** `POST /v1/speak?model=<voice>&...[&speed=]` with `{text}`; returns the audio bytes. */
export async function requestSpeech(
  options: DeepgramOptions,
  fetchFunction: typeof fetch,
  voice: string,
  format: AudioFormat,
  speed: number | undefined,
  text: string,
  signal: AbortSignal,
): Promise<Uint8Array> {
  const response = await upstreamFetch({
    provider: PROVIDER,
    fetch: fetchFunction,
    url: `${apiRoot(options.baseUrl)}/v1/speak?${speakQuery(voice, format, speed)}`,
    method: 'POST',
    headers: { ...authorization(options), 'content-type': 'application/json' },
    body: JSON.stringify(speakBody(text)),
    timeoutMs: options.timeoutMs,
    signal,
    secrets: [options.apiKey],
    mapError: readDeepgramError,
  });
  return upstreamAudio(PROVIDER, response);
}

/** `GET /v1/models`: the project's speech-to-text and text-to-speech models. */
export async function requestModels<T>(options: DeepgramOptions, fetchFunction: typeof fetch, signal?: AbortSignal): Promise<T> {
  const response = await upstreamFetch({
    provider: PROVIDER,
    fetch: fetchFunction,
    url: `${apiRoot(options.baseUrl)}/v1/models`,
    headers: authorization(options),
    timeoutMs: options.timeoutMs,
    signal,
    secrets: [options.apiKey],
    mapError: readDeepgramError,
  });
  return parseUpstreamJson<T>(PROVIDER, response.body);
}
