import { parseUpstreamJson, upstreamAudio, upstreamAudioStream, upstreamFetch, upstreamStream, type UpstreamRequest } from '../../core';
import { PROVIDER, readElevenLabsError } from './errors';
import type { ElevenLabsOptions } from './options-schema';


/** `https://api.elevenlabs.io`, with or without a trailing slash or `/v1`. */
function apiRoot(baseUrl: string): string {
  return baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '');
}

/** A thin ElevenLabs HTTP client: every call goes through core's error mapping. */
export class ElevenLabsClient {
  constructor(
    private readonly options: ElevenLabsOptions,
    private readonly fetchFunction: typeof fetch,
  ) {}

  /** GETs a JSON document, for example `/v1/models` or `/v2/voices?page_size=100`. */
  async getJson<T>(pathAndQuery: string, signal?: AbortSignal): Promise<T> {
    const response = await upstreamFetch({
      provider: PROVIDER,
      fetch: this.fetchFunction,
      url: `${apiRoot(this.options.baseUrl)}${pathAndQuery}`,
      headers: { 'xi-api-key': this.options.apiKey, accept: 'application/json' },
      timeoutMs: this.options.timeoutMs,
      signal,
      secrets: [this.options.apiKey],
      mapError: readElevenLabsError,
    });
    return parseUpstreamJson<T>(PROVIDER, response.body);
  }

  /** `POST /v1/text-to-speech/{voice_id}?output_format=...`; returns the audio bytes. */
  async textToSpeech(voiceId: string, outputFormat: string, body: object, signal: AbortSignal): Promise<Uint8Array> {
    return upstreamAudio(PROVIDER, await upstreamFetch(this.speechCall('', voiceId, outputFormat, body, signal)));
  }

  /**
   * `POST /v1/text-to-speech/{voice_id}/stream`: the same query and body, the audio sent chunked
   * as it is generated (the official SDK's `convertAsStream`/`stream` call this path).
   */
  async streamTextToSpeech(voiceId: string, outputFormat: string, body: object, signal: AbortSignal): Promise<AsyncIterable<Uint8Array>> {
    return upstreamAudioStream(PROVIDER, await upstreamStream(this.speechCall('/stream', voiceId, outputFormat, body, signal)));
  }

  private speechCall(suffix: '' | '/stream', voiceId: string, outputFormat: string, body: object, signal: AbortSignal): UpstreamRequest {
    const query = new URLSearchParams({ output_format: outputFormat });
    return {
      provider: PROVIDER,
      fetch: this.fetchFunction,
      url: `${apiRoot(this.options.baseUrl)}/v1/text-to-speech/${encodeURIComponent(voiceId)}${suffix}?${query}`,
      method: 'POST',
      headers: { 'xi-api-key': this.options.apiKey, 'content-type': 'application/json', accept: 'audio/*' },
      body: JSON.stringify(body),
      timeoutMs: this.options.timeoutMs,
      signal,
      secrets: [this.options.apiKey],
      mapError: readElevenLabsError,
    };
  }
}
