/**
 * How a failed upstream call is classified; each class becomes one gateway error code:
 * - `credentials`: the gateway's key or signature is refused (`TTS_ERR_UPSTREAM_AUTH`);
 * - `quota`: the provider account is out of credit or its billing stopped (`TTS_ERR_UPSTREAM_QUOTA`);
 * - `rate_limit`: too many calls for now, worth a retry later (`TTS_ERR_RATE_LIMITED`);
 * - `timeout`: the provider says it timed out (`TTS_ERR_TIMEOUT`);
 * - `rejected`: the provider refused this request (`TTS_ERR_UPSTREAM`);
 * - `server_error`: the provider failed (`TTS_ERR_UPSTREAM`).
 */
export type UpstreamFailure = 'credentials' | 'quota' | 'rate_limit' | 'timeout' | 'rejected' | 'server_error';

/** What a plugin reads out of its provider's error answer. */
export interface UpstreamErrorReading {
  /** Overrides the class the HTTP status implies (a 400 that is really throttling, a 429 that is a billing stop). */
  readonly failure?: UpstreamFailure;
  /** The provider's own code or type (`insufficient_quota`, `ThrottlingException`). */
  readonly providerCode?: string;
  /** The provider's human message; scrubbed of credentials before anyone sees it. */
  readonly providerMessage?: string;
  /**
   * The provider's id of the failed request, which its support asks for: logged beside the
   * message, as sent (an id looks like a key to the message's scrubbing, which would hide it).
   */
  readonly providerRequestId?: string;
  /** A wait the provider states in its body when it sends no Retry-After header (seconds). */
  readonly retryAfterSeconds?: number;
  /**
   * The wait to the millisecond, when the provider states it so (OpenAI's `retry-after-ms`):
   * preferred over Retry-After, as the official SDK prefers it.
   */
  readonly retryAfterMs?: number;
  /** The provider's own word on whether another attempt can help (OpenAI's `x-should-retry`), over what the status implies. */
  readonly retryable?: boolean;
}

/** A provider's HTTP error answer as a `mapError` hook sees it. */
export interface UpstreamErrorAnswer {
  readonly status: number;
  readonly headers: Headers;
  /** The body as text (its first 4 KiB). */
  readonly text: string;
}
