import { parseUpstreamJson, upstreamFetch, upstreamStream, type UpstreamRequest, type UpstreamStreamResponse } from '../../core';
import type { MiniMaxOptions } from './options-schema';
import { baseResponseError, PROVIDER, readMiniMaxError, type BaseResponse } from './errors';

/** `https://api.minimax.io`, with or without a trailing `/` or `/v1`. */
export function apiRoot(baseUrl: string): string {
  return baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '');
}

function endpointUrl(options: MiniMaxOptions, path: string): string {
  const query = options.groupId ? `?GroupId=${encodeURIComponent(options.groupId)}` : '';
  return `${apiRoot(options.baseUrl)}${path}${query}`;
}

function postCall(options: MiniMaxOptions, fetchFunction: typeof fetch, path: string, body: unknown, signal?: AbortSignal): UpstreamRequest {
  return {
    provider: PROVIDER,
    fetch: fetchFunction,
    url: endpointUrl(options, path),
    method: 'POST',
    headers: { authorization: `Bearer ${options.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
    timeoutMs: options.timeoutMs,
    signal,
    secrets: [options.apiKey],
    mapError: (answer) => readMiniMaxError(answer, [options.apiKey]),
  };
}

/**
 * POSTs JSON to one MiniMax endpoint and returns the parsed answer. HTTP failures are mapped by
 * `upstreamFetch`; a 200 carrying a non-zero `base_resp.status_code` is mapped here.
 */
export async function postMiniMax<T extends { base_resp?: BaseResponse }>(
  options: MiniMaxOptions,
  fetchFunction: typeof fetch,
  path: string,
  body: unknown,
  signal?: AbortSignal,
): Promise<T> {
  const response = await upstreamFetch(postCall(options, fetchFunction, path, body, signal));
  const parsed = parseUpstreamJson<T>(PROVIDER, response.body);
  const failure = baseResponseError(parsed?.base_resp, [options.apiKey]);
  if (failure) throw failure;
  return parsed;
}

/** The same POST with its answer read as it arrives (a `stream: true` synthesis answers server-sent events). */
export function streamMiniMax(options: MiniMaxOptions, fetchFunction: typeof fetch, path: string, body: unknown, signal: AbortSignal): Promise<UpstreamStreamResponse> {
  return upstreamStream(postCall(options, fetchFunction, path, body, signal));
}
