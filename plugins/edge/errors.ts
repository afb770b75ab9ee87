import { GatewayError, type UpstreamErrorAnswer } from '../../core';

export const EDGE_PROVIDER = 'Edge read-aloud';

const UPDATE_HINT = 'its client (token scheme or clientVersion option) may need an update';

/** The service's answer to a handshake or call it would not serve. */
export function serviceRefused(what: string, upstreamStatus?: number): GatewayError {
  return new GatewayError('TTS_ERR_UNAVAILABLE', `The Edge read-aloud service refused the connection (${what}); ${UPDATE_HINT}`, {
    details: [{ reason: 'service_refused', provider: EDGE_PROVIDER, ...(upstreamStatus ? { upstreamStatus } : {}) }],
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
