import { badUpstreamResponse, parseUpstreamJson, upstreamFetch, upstreamStream, type UpstreamRequest } from '../../core';
import { signedHeaders } from './aws-signer';
import { PROVIDER, readPollyError } from './errors';
import type { PollyEngineName } from './models';
import { pollyBaseUrl, type PollyOptions } from './options-schema';
import type { PollyOutput } from './output-formats';
import type { SynthesizeSpeechBody } from './request-body';
import type { PollyVoice } from './voices';

/** A guard against a NextToken that never ends; Polly has a few hundred voices. */
const MAX_PAGES = 50;

/** Polly's two REST calls, signed with SigV4 and sent through core's upstreamFetch. */
export class PollyClient {
  constructor(
    private readonly options: PollyOptions,
    private readonly fetchImplementation: typeof fetch,
  ) {}

  /** DescribeVoices for one engine, following NextToken over every page. */
  async describeVoices(engine: PollyEngineName, signal?: AbortSignal): Promise<PollyVoice[]> {
    const voices: PollyVoice[] = [];
    let nextToken: string | undefined;
    for (let page = 0; page < MAX_PAGES; page += 1) {
      const query = new URLSearchParams({ Engine: engine, ...(nextToken ? { NextToken: nextToken } : {}) });
      const response = await this.call('GET', `/v1/voices?${query.toString().replace(/\+/g, '%20')}`, undefined, signal);
      const body = parseUpstreamJson<{ Voices?: unknown; NextToken?: unknown }>(PROVIDER, response.body);
      if (!Array.isArray(body?.Voices)) throw badUpstreamResponse(PROVIDER, 'the voice list has no "Voices" array');
      voices.push(...(body.Voices as PollyVoice[]));
      nextToken = typeof body.NextToken === 'string' && body.NextToken.length > 0 ? body.NextToken : undefined;
      if (!nextToken) return voices;
    }
    throw badUpstreamResponse(PROVIDER, `the voice list did not end within ${MAX_PAGES} pages`);
  }

  /** SynthesizeSpeech: the answer is the audio itself, with one of the output's Content-Types. */
  async synthesizeSpeech(body: SynthesizeSpeechBody, output: PollyOutput, signal: AbortSignal): Promise<Uint8Array> {
    const response = await this.call('POST', '/v1/speech', JSON.stringify(body), signal);
    checkAudioType(response.headers, body, output);
    if (response.body.byteLength === 0) throw badUpstreamResponse(PROVIDER, 'the audio is empty');
    return response.body;
  }

  /**
   * The same SynthesizeSpeech call read as it arrives: its `AudioStream` is the HTTP body, which
   * Polly sends while it synthesizes (the SDK's SynthesizeSpeechCommand hands it on as a stream).
   */
  async streamSpeech(body: SynthesizeSpeechBody, output: PollyOutput, signal: AbortSignal): Promise<AsyncIterable<Uint8Array>> {
    const response = await upstreamStream(this.signedCall('POST', '/v1/speech', JSON.stringify(body), signal));
    try {
      checkAudioType(response.headers, body, output);
    } catch (error) {
      await response.cancel();
      throw error;
    }
    return response.chunks;
  }

  private call(method: 'GET' | 'POST', path: string, body: string | undefined, signal?: AbortSignal) {
    return upstreamFetch(this.signedCall(method, path, body, signal));
  }

  /** One call, signed with SigV4 over its method, URL, headers and body. */
  private signedCall(method: 'GET' | 'POST', path: string, body: string | undefined, signal?: AbortSignal): UpstreamRequest {
    const url = `${pollyBaseUrl(this.options)}${path}`;
    const headers: Record<string, string> = body === undefined ? { accept: 'application/json' } : { 'content-type': 'application/json' };
    const { accessKeyId, secretAccessKey, sessionToken } = this.options;
    return {
      provider: PROVIDER,
      fetch: this.fetchImplementation,
      url,
      method,
      headers: signedHeaders({ method, url, headers, body }, { accessKeyId, secretAccessKey, sessionToken }, this.options.region, 'polly'),
      body,
      timeoutMs: this.options.timeoutMs,
      signal,
      secrets: [secretAccessKey, ...(sessionToken ? [sessionToken] : [])],
      mapError: readPollyError,
    };
  }
}

/** A SynthesizeSpeech answer is audio with one of the output's Content-Types, else Polly's fault (502). */
function checkAudioType(headers: Headers, body: SynthesizeSpeechBody, output: PollyOutput): void {
  const contentType = headers.get('content-type') ?? '';
  if (!output.contentTypes.some((expected) => contentType.startsWith(expected))) {
    throw badUpstreamResponse(PROVIDER, `asked for ${body.OutputFormat}, got Content-Type '${contentType || 'none'}'`);
  }
}
