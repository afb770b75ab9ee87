import { gatewayError, type AudioFormat, type GatewayError, type UpstreamErrorAnswer } from '../../core';

export const PROVIDER = 'Edge read-aloud';

const UPDATE_HINT = 'its client (token scheme or clientVersion option) may need an update';

/**
 * The service's answer to a handshake or call it would not serve. A 401/403 (after the clock
 * skew was corrected) says the client is out of date: asking again changes nothing until it is
 * updated, so neither the gateway nor a client's SDK retries it (a route still falls back).
 */
export function serviceRefused(what: string, upstreamStatus?: number): GatewayError {
  const outdatedClient = upstreamStatus === 401 || upstreamStatus === 403;
  return gatewayError('TTS_ERR_UNAVAILABLE', { provider: PROVIDER, reason: `the service refused the connection (${what}); ${UPDATE_HINT}` }, {
    details: [{ reason: 'service_refused', provider: PROVIDER, ...(upstreamStatus ? { upstreamStatus } : {}) }],
    ...(outdatedClient ? { retryable: false } : {}),
  });
}

/** Raised by a session when the HTTP upgrade is answered with a status instead of 101. */
export class HandshakeRefused extends Error {
  constructor(
    readonly status: number,
    readonly serverDate: string | undefined,
  ) {
    super(`handshake refused with HTTP ${status}`);
  }
}

/**
 * The voice list's error answers: a refusal (401/403) means the client's token scheme or version
 * is out of date, never a key (there is none); other statuses are mapped by core.
 */
export function readVoiceListError(answer: UpstreamErrorAnswer): GatewayError | undefined {
  return answer.status === 401 || answer.status === 403 ? serviceRefused(`HTTP ${answer.status}`, answer.status) : undefined;
}

/** The socket errors of one turn: cancelled by the caller, silent past the deadline, unreachable. */
export function cancelled(): GatewayError {
  return gatewayError('TTS_ERR_CANCELLED', { subject: `The call to ${PROVIDER}` });
}

export function timedOut(timeoutMs: number): GatewayError {
  return gatewayError('TTS_ERR_TIMEOUT', { subject: PROVIDER, limit: `${timeoutMs} ms (the turn did not end)` }, {
    details: [{ reason: 'upstream_timeout', provider: PROVIDER, timeoutMs }],
  });
}

export function unreachable(error: Error): GatewayError {
  return gatewayError('TTS_ERR_UNAVAILABLE', { provider: PROVIDER, reason: 'it could not be reached' }, {
    details: [{ reason: 'upstream_unreachable', provider: PROVIDER }],
    cause: error,
  });
}

export function unknownModel(model: string, served: string): GatewayError {
  return gatewayError('TTS_ERR_MODEL_NOT_FOUND', { provider: PROVIDER, model, served }, {
    details: [{ field: 'model', reason: 'unknown_model', model }],
  });
}

export function notNativeFormat(format: AudioFormat): GatewayError {
  return gatewayError('TTS_ERR_UNSUPPORTED_FORMAT', { subject: PROVIDER, format, reason: 'it produces only mp3 natively' }, {
    details: [{ field: 'format', reason: 'not_native', format }],
  });
}
