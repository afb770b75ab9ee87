import { randomUUID } from 'node:crypto';
import { badUpstreamResponse, parseUpstreamJson, upstreamFetch } from '../../core';
import { edgeBrowserHeaders, secMsGec, ServiceClock } from './client-token';
import { HandshakeRefused, PROVIDER, readVoiceListError, serviceRefused } from './errors';
import type { EdgeOptions } from './options-schema';
import { edgeTimestamp, speechConfigMessage, ssmlMessage } from './protocol';
import { openEdgeTurn } from './socket-turn';
import type { EdgeVoice } from './voices';
import { canDecodeZstd, decodeZstd, isZstdFrame } from './zstd-body';

/** Headers the browser's read-aloud extension adds to the WebSocket upgrade. */
const SOCKET_HEADERS = { Pragma: 'no-cache', 'Cache-Control': 'no-cache', Origin: 'chrome-extension://jdiccldimpdaibmpdkjnbmckianbfold' };

/** Talks to the read-aloud service the way the Edge browser does. */
export class EdgeClient {
  private readonly clock = new ServiceClock();

  constructor(
    private readonly options: EdgeOptions,
    private readonly fetchImplementation: typeof fetch,
  ) {}

  /** One synthesis turn's whole audio. */
  async synthesize(ssml: string, outputFormat: string, signal: AbortSignal): Promise<Uint8Array> {
    const parts: Uint8Array[] = [];
    for await (const part of await this.streamSynthesis(ssml, outputFormat, signal)) parts.push(part);
    return new Uint8Array(Buffer.concat(parts));
  }

  /**
   * One synthesis turn, its audio handed on frame by frame as the service sends it (resolves with
   * the first frame). Retries once when a refusal's Date header shows clock skew.
   */
  async streamSynthesis(ssml: string, outputFormat: string, signal: AbortSignal): Promise<AsyncIterable<Uint8Array>> {
    try {
      return await this.turn(ssml, outputFormat, signal);
    } catch (error) {
      if (!(error instanceof HandshakeRefused)) throw error;
      if (error.status === 403 && this.clock.learnFrom(error.serverDate, this.options.trustedClientToken)) {
        try {
          return await this.turn(ssml, outputFormat, signal);
        } catch (retryError) {
          throw retryError instanceof HandshakeRefused ? serviceRefused(`HTTP ${retryError.status}`, retryError.status) : retryError;
        }
      }
      throw serviceRefused(`HTTP ${error.status}`, error.status);
    }
  }

  private turn(ssml: string, outputFormat: string, signal: AbortSignal): Promise<AsyncIterable<Uint8Array>> {
    const requestId = randomUUID().replace(/-/g, '');
    const timestamp = edgeTimestamp(new Date());
    const url = new URL(this.options.baseUrl);
    url.searchParams.set('TrustedClientToken', this.options.trustedClientToken);
    url.searchParams.set('ConnectionId', randomUUID().replace(/-/g, ''));
    this.addToken(url);
    return openEdgeTurn({
      url: url.toString(),
      headers: { ...SOCKET_HEADERS, ...edgeBrowserHeaders(this.options.clientVersion) },
      requestId,
      // The browser appends a stray "Z" to the ssml frame's timestamp; the service expects it.
      messages: [speechConfigMessage(outputFormat, timestamp), ssmlMessage(requestId, ssml, `${timestamp}Z`)],
      timeoutMs: this.options.timeoutMs,
      signal,
    });
  }

  /** The read-aloud voice list; a refusal (401/403) means the client is outdated, not a key. */
  async listVoices(signal?: AbortSignal): Promise<EdgeVoice[]> {
    const url = new URL(this.options.voicesUrl);
    url.searchParams.set('trustedclienttoken', this.options.trustedClientToken);
    this.addToken(url);
    const headers = { ...edgeBrowserHeaders(this.options.clientVersion), Accept: '*/*' };
    let body = await this.fetchVoiceList(url, headers, signal);
    if (isZstdFrame(body) && !canDecodeZstd) {
      // This Node cannot decode zstd: ask once more without it, as an older browser would.
      body = await this.fetchVoiceList(url, { ...headers, 'Accept-Encoding': 'gzip, deflate, br' }, signal);
    }
    const list = parseUpstreamJson<unknown>(PROVIDER, isZstdFrame(body) ? unzstd(body) : body);
    if (!Array.isArray(list)) throw badUpstreamResponse(PROVIDER, 'the voice list is not an array');
    return list.filter((entry): entry is EdgeVoice => typeof entry?.ShortName === 'string' && typeof entry?.Locale === 'string');
  }

  private async fetchVoiceList(url: URL, headers: Record<string, string>, signal?: AbortSignal): Promise<Uint8Array> {
    const response = await upstreamFetch({
      provider: PROVIDER,
      fetch: this.fetchImplementation,
      url: url.toString(),
      headers,
      timeoutMs: this.options.timeoutMs,
      signal,
      mapError: readVoiceListError,
    });
    return response.body;
  }

  private addToken(url: URL): void {
    url.searchParams.set('Sec-MS-GEC', secMsGec(this.options.trustedClientToken, this.clock.now()));
    url.searchParams.set('Sec-MS-GEC-Version', `1-${this.options.clientVersion}`);
  }
}

/** A zstd body this Node can decode; a corrupt one is the service's fault (502). */
function unzstd(body: Uint8Array): Uint8Array {
  try {
    return decodeZstd(body);
  } catch (error) {
    throw badUpstreamResponse(PROVIDER, `the zstd-compressed voice list could not be decoded (${(error as Error).message})`);
  }
}
