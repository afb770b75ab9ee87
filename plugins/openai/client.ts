import { upstreamAudio, upstreamAudioStream, upstreamFetch, upstreamStream, type UpstreamRequest } from '../../core';
import { PROVIDER, readOpenAiError } from './errors';
import type { OpenAiOptions } from './options-schema';
import type { SpeechBody } from './request-body';


/** `https://api.openai.com`, `https://api.openai.com/`, `https://api.openai.com/v1` all mean the same. */
export function apiRoot(baseUrl: string): string {
  return baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '');
}

function headers(options: OpenAiOptions, requestId: string): Record<string, string> {
  return {
    authorization: `Bearer ${options.apiKey}`,
    'content-type': 'application/json',
    'x-client-request-id': requestId,
    ...(options.organization ? { 'openai-organization': options.organization } : {}),
    ...(options.project ? { 'openai-project': options.project } : {}),
  };
}

function speechCall(options: OpenAiOptions, fetchFunction: typeof fetch, body: SpeechBody, signal: AbortSignal, requestId: string): UpstreamRequest {
  return {
    provider: PROVIDER,
    fetch: fetchFunction,
    url: `${apiRoot(options.baseUrl)}/v1/audio/speech`,
    method: 'POST',
    headers: headers(options, requestId),
    body: JSON.stringify(body),
    timeoutMs: options.timeoutMs,
    signal,
    secrets: [options.apiKey],
    mapError: readOpenAiError,
  };
}

/** Calls `POST /v1/audio/speech` and returns the audio bytes. */
export async function requestSpeech(
  options: OpenAiOptions,
  fetchFunction: typeof fetch,
  body: SpeechBody,
  signal: AbortSignal,
  requestId: string,
): Promise<Uint8Array> {
  return upstreamAudio(PROVIDER, await upstreamFetch(speechCall(options, fetchFunction, body, signal, requestId)));
}

/** The same call, its audio handed on as OpenAI sends it (the endpoint streams chunked audio). */
export async function streamSpeech(
  options: OpenAiOptions,
  fetchFunction: typeof fetch,
  body: SpeechBody,
  signal: AbortSignal,
  requestId: string,
): Promise<AsyncIterable<Uint8Array>> {
  return upstreamAudioStream(PROVIDER, await upstreamStream(speechCall(options, fetchFunction, body, signal, requestId)));
}
