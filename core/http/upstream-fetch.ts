import { LinkedAbort } from '../abort/linked-abort';
import { gatewayError, isGatewayError, type GatewayError } from '../errors';
import { readCommonErrorBody } from './common-error-body';
import { upstreamError } from './upstream-error';
import type { UpstreamErrorAnswer, UpstreamErrorReading } from './upstream-error-reading';

/** One HTTP call to a provider's API. */
export interface UpstreamRequest {
  /** Provider name used in error messages and logs (`OpenAI`, `ElevenLabs`). */
  readonly provider: string;
  readonly fetch: typeof fetch;
  readonly url: string;
  readonly method?: 'GET' | 'POST' | 'DELETE';
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string | Uint8Array;
  /** Whole-call deadline (headers and body), in milliseconds. */
  readonly timeoutMs: number;
  /** The caller's cancellation (client gone, gateway shutting down). */
  readonly signal?: AbortSignal;
  /** Credentials to scrub from any upstream message that reaches a client or a log. */
  readonly secrets?: readonly string[];
  /**
   * Reads the provider's own error body: its code, message, a wait it states, or a class that
   * differs from what the HTTP status says (a 400 that is throttling, a 429 that is a billing
   * stop). May also return a complete GatewayError. Absent, or returning undefined: core reads
   * the common body shapes and classifies by status.
   */
  readonly mapError?: (answer: UpstreamErrorAnswer) => UpstreamErrorReading | GatewayError | undefined;
}

/** A successful upstream answer with its body already read under the same deadline. */
export interface UpstreamResponse {
  readonly status: number;
  readonly headers: Headers;
  readonly body: Uint8Array;
}

/**
 * Calls a provider and maps every failure to a coded error: 401/403 -> 502 (credentials),
 * 402 -> 502 (quota), 429 -> 429 with Retry-After, other 4xx and 5xx -> 502 (each unless the
 * plugin's `mapError` reads the body otherwise), deadline -> 504, connection failure -> 503,
 * caller cancellation -> cancelled.
 */
export async function upstreamFetch(request: UpstreamRequest): Promise<UpstreamResponse> {
  const bound = new LinkedAbort([request.signal], request.timeoutMs);
  const signal = bound.signal;
  try {
    const response = await request.fetch(request.url, {
      method: request.method ?? 'GET',
      headers: request.headers,
      body: request.body,
      signal,
    });
    const body = new Uint8Array(await response.arrayBuffer().catch((error: unknown): never => {
      throw answerBrokeOff(error, request, signal);
    }));
    if (!response.ok) throw upstreamAnswerError(request, { status: response.status, headers: response.headers, text: new TextDecoder().decode(body.subarray(0, 4096)) });
    return { status: response.status, headers: response.headers, body };
  } catch (error) {
    throw upstreamFailure(error, request, signal);
  } finally {
    bound.dispose();
  }
}

/** The coded error of a provider's HTTP error answer: its plugin's `mapError` reading, else core's. */
export function upstreamAnswerError(request: UpstreamRequest, answer: UpstreamErrorAnswer): GatewayError {
  const mapped = request.mapError?.(answer);
  if (isGatewayError(mapped)) return mapped;
  return upstreamError({
    provider: request.provider,
    upstreamStatus: answer.status,
    reading: mapped ?? readCommonErrorBody(answer.text),
    retryAfterHeader: answer.headers.get('retry-after'),
    secrets: request.secrets,
  });
}

/** Maps a failed call (abort, deadline, network) to a coded error; coded errors pass through. */
export function upstreamFailure(error: unknown, request: UpstreamRequest, timeout: AbortSignal): GatewayError {
  if (isGatewayError(error)) return error;
  if (request.signal?.aborted) {
    return gatewayError('TTS_ERR_CANCELLED', { subject: `The call to ${request.provider}` }, { cause: error });
  }
  if (timeout.aborted) {
    return gatewayError('TTS_ERR_TIMEOUT', { subject: request.provider, limit: `${request.timeoutMs} ms` }, {
      details: [{ reason: 'upstream_timeout', provider: request.provider, timeoutMs: request.timeoutMs }],
      cause: error,
    });
  }
  return gatewayError('TTS_ERR_UNAVAILABLE', { provider: request.provider, reason: 'it could not be reached' }, {
    details: [{ reason: 'upstream_unreachable', provider: request.provider }],
    cause: error,
  });
}

/**
 * A body that fails while it arrives: the provider was reached and answered, so a dropped
 * connection is an answer that broke off, not one that "could not be reached" (a stream's SSE
 * error event, an answer after the retries and the log said that). Cancellations and stalls
 * keep their own codes.
 */
export function answerBrokeOff(error: unknown, request: UpstreamRequest, timeout: AbortSignal): GatewayError {
  const failure = upstreamFailure(error, request, timeout);
  if (isGatewayError(error) || failure.code !== 'TTS_ERR_UNAVAILABLE') return failure;
  return gatewayError('TTS_ERR_UPSTREAM_BAD_RESPONSE', { provider: request.provider, problem: 'its answer broke off before its end' }, {
    details: [{ reason: 'upstream_broken_off', provider: request.provider }],
    cause: error,
  });
}

/** Parses a JSON body; an unusable body is the provider's fault (502). */
export function parseUpstreamJson<T>(provider: string, body: Uint8Array): T {
  try {
    return JSON.parse(new TextDecoder().decode(body)) as T;
  } catch (error) {
    throw gatewayError('TTS_ERR_UPSTREAM_BAD_RESPONSE', { provider, problem: 'the body is not valid JSON' }, {
      details: [{ reason: 'malformed_body', provider }],
      cause: error,
    });
  }
}

/** Raised by a plugin when an upstream answer parses but lacks what the contract needs. */
export function badUpstreamResponse(provider: string, what: string): GatewayError {
  return gatewayError('TTS_ERR_UPSTREAM_BAD_RESPONSE', { provider, problem: what }, {
    details: [{ reason: 'malformed_body', provider }],
  });
}

/**
 * The audio bytes of a synthesis answer. A JSON or text body on a 2xx, or an empty one, is the
 * provider's fault (502), whatever its status says.
 */
export function upstreamAudio(provider: string, response: UpstreamResponse): Uint8Array {
  const contentType = response.headers.get('content-type') ?? '';
  if (contentType.includes('json') || contentType.startsWith('text/')) {
    throw badUpstreamResponse(provider, `expected audio, got ${contentType.split(';')[0]}`);
  }
  if (response.body.length === 0) throw badUpstreamResponse(provider, 'empty audio');
  return response.body;
}
