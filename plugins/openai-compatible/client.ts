import { parseUpstreamJson, upstreamAudio, upstreamAudioStream, upstreamFetch, upstreamStream, type UpstreamRequest } from '../../core';
import { readCompatibleError } from './errors';
import type { OpenAiCompatibleOptions } from './options-schema';

/** Names the server in errors and logs, for example `OpenAI-compatible server kokoro`. */
export function providerName(instanceId: string): string {
  return `OpenAI-compatible server ${instanceId}`;
}

/** `http://host:8880`, `http://host:8880/` and `http://host:8880/v1` all mean the same. */
function apiRoot(baseUrl: string): string {
  return baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '');
}

/** HTTP calls to an OpenAI-shaped speech server, through core's error mapping. */
export class CompatibleClient {
  constructor(
    private readonly options: OpenAiCompatibleOptions,
    private readonly fetchFunction: typeof fetch,
    readonly provider: string,
  ) {}

  private headers(extra: Record<string, string>): Record<string, string> {
    // Fields first, then the spread: a spread followed by new fields is slow on Node 20 (see extended() in core).
    return this.options.apiKey ? { authorization: `Bearer ${this.options.apiKey}`, ...extra } : { ...extra };
  }

  private get secrets(): string[] {
    return this.options.apiKey ? [this.options.apiKey] : [];
  }

  async getJson<T>(path: string, signal?: AbortSignal): Promise<T> {
    const response = await upstreamFetch({
      provider: this.provider,
      fetch: this.fetchFunction,
      url: `${apiRoot(this.options.baseUrl)}${path}`,
      headers: this.headers({ accept: 'application/json' }),
      timeoutMs: this.options.timeoutMs,
      signal,
      secrets: this.secrets,
      mapError: readCompatibleError,
    });
    return parseUpstreamJson<T>(this.provider, response.body);
  }

  /** `POST /v1/audio/speech`; returns the audio bytes. */
  async speech(body: object, signal: AbortSignal): Promise<Uint8Array> {
    return upstreamAudio(this.provider, await upstreamFetch(this.speechCall(body, signal)));
  }

  /** The same call, its audio handed on as the server sends it. */
  async speechStream(body: object, signal: AbortSignal): Promise<AsyncIterable<Uint8Array>> {
    return upstreamAudioStream(this.provider, await upstreamStream(this.speechCall(body, signal)));
  }

  private speechCall(body: object, signal: AbortSignal): UpstreamRequest {
    return {
      provider: this.provider,
      fetch: this.fetchFunction,
      url: `${apiRoot(this.options.baseUrl)}/v1/audio/speech`,
      method: 'POST',
      headers: this.headers({ 'content-type': 'application/json' }),
      body: JSON.stringify(body),
      timeoutMs: this.options.timeoutMs,
      signal,
      secrets: this.secrets,
      mapError: readCompatibleError,
    };
  }
}
