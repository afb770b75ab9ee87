import { badUpstreamResponse, parseUpstreamJson, upstreamFetch } from '../../core';
import { decodeAudioContent } from './audio-content';
import { PROVIDER, readGoogleError } from './errors';
import type { GoogleOptions } from './options-schema';
import type { GoogleSynthesisBody } from './request-body';
import type { GoogleVoice } from './voices';


/** The two REST calls the plugin makes, with Google's credentials and error conventions. */
export class GoogleClient {
  constructor(
    private readonly options: GoogleOptions,
    private readonly fetchImplementation: typeof fetch,
  ) {}

  async listVoices(signal?: AbortSignal): Promise<readonly GoogleVoice[]> {
    const response = await upstreamFetch({ ...this.common(signal), url: this.url('/v1/voices') });
    const body = parseUpstreamJson<{ voices?: unknown }>(PROVIDER, response.body);
    if (!Array.isArray(body?.voices)) throw badUpstreamResponse(PROVIDER, 'the voice list has no "voices" array');
    return body.voices as GoogleVoice[];
  }

  async synthesize(body: GoogleSynthesisBody, signal: AbortSignal): Promise<Uint8Array> {
    const response = await upstreamFetch({
      ...this.common(signal),
      url: this.url('/v1/text:synthesize'),
      method: 'POST',
      headers: { ...this.common(signal).headers, 'content-type': 'application/json; charset=utf-8' },
      body: JSON.stringify(body),
    });
    const answer = parseUpstreamJson<{ audioContent?: unknown }>(PROVIDER, response.body);
    return decodeAudioContent(answer?.audioContent);
  }

  private common(signal?: AbortSignal) {
    return {
      provider: PROVIDER,
      fetch: this.fetchImplementation,
      timeoutMs: this.options.timeoutMs,
      signal,
      secrets: [this.options.apiKey],
      mapError: readGoogleError,
      headers: { 'x-goog-api-key': this.options.apiKey, accept: 'application/json' },
    };
  }

  private url(path: string): string {
    return `${this.options.baseUrl.replace(/\/+$/, '')}${path}`;
  }
}
