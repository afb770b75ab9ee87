import { badUpstreamResponse, parseUpstreamJson, upstreamFetch, upstreamStream, type UpstreamRequest } from '../../core';
import { PROVIDER } from './errors';
import { azureBaseUrl, type AzureOptions } from './options-schema';
import { parseAzureVoices, type AzureVoice } from './voices';

/** Azure requires a User-Agent naming the application (under 255 characters). */
const USER_AGENT = 'tts-gateway';

/** The two REST calls of Azure Speech's text to speech API. */
export class AzureClient {
  constructor(
    private readonly options: AzureOptions,
    private readonly fetchImplementation: typeof fetch,
  ) {}

  /** `POST /cognitiveservices/v1`: SSML in, audio in the requested output format out. */
  async synthesize(ssml: string, outputFormat: string, signal: AbortSignal): Promise<Uint8Array> {
    const response = await upstreamFetch(this.synthesisCall(ssml, outputFormat, signal));
    if (response.body.byteLength === 0) throw badUpstreamResponse(PROVIDER, 'the audio body is empty');
    return response.body;
  }

  /**
   * The same call read as it arrives: Azure sends a long answer in chunks as it synthesizes (the
   * official Azure-Samples/Cognitive-Speech-TTS clients read it part by part), handed on here.
   */
  async streamSynthesis(ssml: string, outputFormat: string, signal: AbortSignal): Promise<AsyncIterable<Uint8Array>> {
    return (await upstreamStream(this.synthesisCall(ssml, outputFormat, signal))).chunks;
  }

  private synthesisCall(ssml: string, outputFormat: string, signal: AbortSignal): UpstreamRequest {
    return {
      provider: PROVIDER,
      fetch: this.fetchImplementation,
      url: `${azureBaseUrl(this.options)}/cognitiveservices/v1`,
      method: 'POST',
      headers: {
        'Ocp-Apim-Subscription-Key': this.options.apiKey,
        'Content-Type': 'application/ssml+xml',
        'X-Microsoft-OutputFormat': outputFormat,
        'User-Agent': USER_AGENT,
      },
      body: ssml,
      timeoutMs: this.options.timeoutMs,
      signal,
      secrets: [this.options.apiKey],
    };
  }

  /** `GET /cognitiveservices/voices/list`: every voice of the region. */
  async listVoices(signal?: AbortSignal): Promise<AzureVoice[]> {
    const response = await upstreamFetch({
      provider: PROVIDER,
      fetch: this.fetchImplementation,
      url: `${azureBaseUrl(this.options)}/cognitiveservices/voices/list`,
      headers: { 'Ocp-Apim-Subscription-Key': this.options.apiKey, 'User-Agent': USER_AGENT },
      timeoutMs: this.options.timeoutMs,
      signal,
      secrets: [this.options.apiKey],
    });
    return parseAzureVoices(parseUpstreamJson<unknown>(PROVIDER, response.body));
  }
}
