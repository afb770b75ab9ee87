import { gatewayError, type ErrorDetail, type GatewayError } from '../errors';
import { extended } from '../objects/extended';
import { parseRetryAfter } from './retry-after';
import type { UpstreamErrorReading, UpstreamFailure } from './upstream-error-reading';

// A long run with a digit in it looks like a key; long words (`UnrecognizedClientException`) do not.
const LONG_TOKEN = /\b(?=[A-Za-z_\-]*[0-9])[A-Za-z0-9_\-]{24,}\b/g;
const KEY_LIKE = /\b(sk|xi|key|token)[-_][A-Za-z0-9_\-]{6,}/gi;

/** Removes anything that looks like a credential from text an upstream sent back. */
export function redactSecrets(text: string, secrets: readonly string[] = []): string {
  let safe = text;
  for (const secret of secrets) {
    if (secret.length < 4) continue;
    // Also as a provider may echo it: escaped inside JSON (an AWS secret's `/` as `\/`), or URL-encoded.
    for (const form of new Set([secret, JSON.stringify(secret).slice(1, -1), secret.replaceAll('/', '\\/'), encodeURIComponent(secret)])) safe = safe.split(form).join('[redacted]');
  }
  return safe.replace(KEY_LIKE, '[redacted]').replace(LONG_TOKEN, '[redacted]').slice(0, 300);
}

/** What an HTTP error status means when the provider's body does not say otherwise. */
export function failureOfStatus(status: number): UpstreamFailure {
  if (status === 401 || status === 403) return 'credentials';
  // 402 Payment Required is HTTP's own word for a billing stop.
  if (status === 402) return 'quota';
  if (status === 429) return 'rate_limit';
  return status >= 500 ? 'server_error' : 'rejected';
}

/** The facts of one failed upstream call, as `upstreamError` turns them into a coded error. */
export interface UpstreamFailureFacts {
  readonly provider: string;
  /** The HTTP status; absent when the provider reports failure inside a 200 (MiniMax). */
  readonly upstreamStatus?: number;
  readonly reading: UpstreamErrorReading;
  /** The Retry-After header, when the answer had one. */
  readonly retryAfterHeader?: string | null;
  /** Credentials to scrub from the provider's code and message. */
  readonly secrets?: readonly string[];
}

/** A provider's request id as it is: an id's characters only, and never one that holds a credential. */
function requestIdToLog(requestId: string | undefined, secrets: readonly string[]): string | undefined {
  if (requestId === undefined || !/^[A-Za-z0-9_.:-]{1,100}$/.test(requestId)) return undefined;
  return secrets.some((secret) => secret.length >= 4 && requestId.includes(secret)) ? undefined : requestId;
}

/** The wait a client is told on a rate limit: Retry-After, else the provider's body, else 1 s. */
const DEFAULT_RETRY_AFTER_SECONDS = 1;

/**
 * Maps one failed upstream call to the gateway's coded error: credentials -> 502 (not
 * retryable), quota -> 502 (not retryable, no Retry-After), rate limit -> 429 with Retry-After,
 * timeout -> 504, anything else -> 502. The client gets the provider's status and code (in the
 * message and `details`) and our own words; the provider's message text, which may name its
 * internals, goes to the log only (`logContext`). Both are scrubbed of credentials.
 */
export function upstreamError(facts: UpstreamFailureFacts): GatewayError {
  const { provider, upstreamStatus, reading } = facts;
  const secrets = facts.secrets ?? [];
  const providerMessage = reading.providerMessage ? redactSecrets(reading.providerMessage, secrets) : undefined;
  const providerCode = reading.providerCode ? redactSecrets(reading.providerCode, secrets) : undefined;
  const detail: ErrorDetail = {
    reason: 'upstream_status',
    provider,
    ...(upstreamStatus !== undefined ? { upstreamStatus } : {}),
    ...(providerCode ? { providerCode } : {}),
  };
  const providerRequestId = requestIdToLog(reading.providerRequestId, secrets);
  const logContext = providerMessage || providerRequestId ? { provider, ...(providerMessage && { providerMessage }), ...(providerRequestId && { providerRequestId }) } : undefined;
  const upstream = upstreamStatus !== undefined ? `HTTP ${upstreamStatus}` : `code ${providerCode ?? 'unknown'}`;
  // Without a status the code is already in `upstream`.
  const params = { provider, upstream, providerCode: upstreamStatus !== undefined ? providerCode : undefined };
  const failure = reading.failure ?? (upstreamStatus !== undefined ? failureOfStatus(upstreamStatus) : 'server_error');
  const options = { details: [detail], ...(logContext && { logContext }), ...(reading.retryable !== undefined && { retryable: reading.retryable }) };
  const statedWait = reading.retryAfterMs !== undefined ? reading.retryAfterMs / 1000 : parseRetryAfter(facts.retryAfterHeader ?? null);
  switch (failure) {
    case 'credentials':
      return gatewayError('TTS_ERR_UPSTREAM_AUTH', params, options);
    case 'quota':
      return gatewayError('TTS_ERR_UPSTREAM_QUOTA', params, options);
    case 'rate_limit': {
      // A wait in milliseconds stays exact for the retry layer; the message (as the header) says whole seconds.
      const retryAfterSeconds = statedWait ?? reading.retryAfterSeconds ?? DEFAULT_RETRY_AFTER_SECONDS;
      return gatewayError('TTS_ERR_RATE_LIMITED', { provider, retryAfterSeconds: Math.ceil(retryAfterSeconds) }, { ...options, retryAfterSeconds });
    }
    case 'timeout':
      return gatewayError('TTS_ERR_TIMEOUT', { subject: provider, limit: `its own deadline (${upstream})` }, options);
    case 'server_error':
    case 'rejected': {
      // A 503 (or another answer a retry may cure) may say when to come back: the retry layer waits at least that.
      const retryAfterSeconds = upstreamStatus === 408 || (upstreamStatus ?? 0) >= 500 ? statedWait : undefined;
      return gatewayError('TTS_ERR_UPSTREAM', params, retryAfterSeconds === undefined ? options : extended(options, { retryAfterSeconds }));
    }
  }
}
