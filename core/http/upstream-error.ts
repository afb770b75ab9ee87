import { GatewayError, type ErrorDetail } from '../errors';

// A long run with a digit in it looks like a key; long words (`UnrecognizedClientException`) do not.
const LONG_TOKEN = /\b(?=[A-Za-z_\-]*[0-9])[A-Za-z0-9_\-]{24,}\b/g;
const KEY_LIKE = /\b(sk|xi|key|token)[-_][A-Za-z0-9_\-]{6,}/gi;

/** Removes anything that looks like a credential from text an upstream sent back. */
export function redactSecrets(text: string, secrets: readonly string[] = []): string {
  let safe = text;
  for (const secret of secrets) {
    if (secret.length >= 4) safe = safe.split(secret).join('[redacted]');
  }
  return safe.replace(KEY_LIKE, '[redacted]').replace(LONG_TOKEN, '[redacted]').slice(0, 300);
}

/** Parses Retry-After (delta seconds or an HTTP date) into whole seconds. */
export function parseRetryAfter(header: string | null, now = Date.now()): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.ceil(seconds);
  const date = Date.parse(header);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, Math.ceil((date - now) / 1000));
}

/** Picks a human message out of the usual error body shapes of TTS providers. */
export function extractProviderMessage(body: string): { message?: string; code?: string } {
  try {
    const parsed: unknown = JSON.parse(body);
    return pickMessage(parsed);
  } catch {
    const text = body.trim();
    return text.length > 0 && !text.startsWith('<') ? { message: text } : {};
  }
}

function pickMessage(value: unknown): { message?: string; code?: string } {
  if (typeof value === 'string') return { message: value };
  if (value === null || typeof value !== 'object') return {};
  const record = value as Record<string, unknown>;
  for (const nested of ['error', 'detail', 'base_resp', 'err_msg']) {
    if (record[nested] !== undefined && typeof record[nested] !== 'string') {
      const found = pickMessage(record[nested]);
      if (found.message) return found;
    }
  }
  const message = firstString(record, ['message', 'Message', 'error', 'detail', 'status_msg', 'err_msg', 'err_code']);
  const code = firstString(record, ['code', 'err_code', 'error_code', 'type', 'status', '__type', 'status_code']);
  return { message, code };
}

function firstString(record: Record<string, unknown>, keys: readonly string[]): string | undefined {
  for (const key of keys) {
    const value = record[key];
    if (typeof value === 'string' && value.length > 0) return value;
    if (typeof value === 'number') return String(value);
  }
  return undefined;
}

/** Maps an upstream HTTP error status to the gateway's coded error. */
export function upstreamStatusError(
  provider: string,
  status: number,
  body: string,
  retryAfterHeader: string | null,
  secrets: readonly string[] = [],
): GatewayError {
  const extracted = extractProviderMessage(body);
  const providerMessage = extracted.message ? redactSecrets(extracted.message, secrets) : undefined;
  const detail: ErrorDetail = {
    reason: 'upstream_status',
    provider,
    upstreamStatus: status,
    ...(extracted.code ? { providerCode: redactSecrets(extracted.code, secrets) } : {}),
    ...(providerMessage ? { providerMessage } : {}),
  };
  const suffix = providerMessage ? `: ${providerMessage}` : '';
  if (status === 401 || status === 403) {
    return new GatewayError('TTS_ERR_UPSTREAM_AUTH', `${provider} rejected the gateway's credentials (HTTP ${status})${suffix}`, { details: [detail] });
  }
  if (status === 429) {
    const retryAfterSeconds = parseRetryAfter(retryAfterHeader) ?? 1;
    return new GatewayError('TTS_ERR_RATE_LIMITED', `${provider} rate limit reached; retry after ${retryAfterSeconds} s`, {
      details: [detail],
      retryAfterSeconds,
    });
  }
  if (status >= 500) {
    return new GatewayError('TTS_ERR_UPSTREAM', `${provider} failed with HTTP ${status}${suffix}`, { details: [detail] });
  }
  return new GatewayError('TTS_ERR_UPSTREAM', `${provider} rejected the request (HTTP ${status})${suffix}`, { details: [detail] });
}
