import { parseUpstreamJson, upstreamAudio, upstreamAudioStream, upstreamFetch, upstreamStream, type AudioFormat, type UpstreamRequest } from '../../core';
import { PROVIDER, readDeepgramError } from './errors';
import type { DeepgramOptions } from './options-schema';
import { speakBody, speakQuery } from './request-body';


function apiRoot(baseUrl: string): string {
  return baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '');
}

const authorization = (options: DeepgramOptions) => ({ authorization: `Token ${options.apiKey}` });

/** What one `POST /v1/speak` says: the voice (Deepgram's model id), the format, the text. */
export interface SpeakCall {
  readonly voice: string;
  readonly format: AudioFormat;
  readonly text: string;
}

function speakRequest(options: DeepgramOptions, fetchFunction: typeof fetch, call: SpeakCall, signal: AbortSignal): UpstreamRequest {
  return {
    provider: PROVIDER,
    fetch: fetchFunction,
    url: `${apiRoot(options.baseUrl)}/v1/speak?${speakQuery(call.voice, call.format)}`,
    method: 'POST',
    headers: { ...authorization(options), 'content-type': 'application/json' },
    body: JSON.stringify(speakBody(call.text)),
    timeoutMs: options.timeoutMs,
    signal,
    secrets: [options.apiKey],
    mapError: readDeepgramError,
  };
}

/** `POST /v1/speak?model=<voice>&...` with `{text}`; returns the audio bytes. */
export async function requestSpeech(options: DeepgramOptions, fetchFunction: typeof fetch, call: SpeakCall, signal: AbortSignal): Promise<Uint8Array> {
  return upstreamAudio(PROVIDER, await upstreamFetch(speakRequest(options, fetchFunction, call, signal)));
}

/**
 * The same call read as it arrives: Deepgram's REST speak answer is sent chunked while the audio
 * is generated (the official SDK's `speak.request(...).getStream()` hands on this body).
 */
export async function streamSpeech(options: DeepgramOptions, fetchFunction: typeof fetch, call: SpeakCall, signal: AbortSignal): Promise<AsyncIterable<Uint8Array>> {
  return upstreamAudioStream(PROVIDER, await upstreamStream(speakRequest(options, fetchFunction, call, signal)));
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
