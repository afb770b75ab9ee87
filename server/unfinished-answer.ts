import type { ServerResponse } from 'node:http';
import type { Response } from 'express';
import { ERROR_CATALOGUE } from '../core';
import { addAccessLogFields, streamErrorOf } from './request-context';

/** Status counted for a request whose client left before the answer was complete. */
export const CLIENT_CLOSED = 499;

/** Set on an answer the connection layer wrote straight to the socket (a body too slow: 408). */
const ANSWERED_BY_CONNECTION = Symbol('answered by the connection layer');
type MarkedResponse = ServerResponse & { [ANSWERED_BY_CONNECTION]?: true };

/**
 * Records that Node's connection layer answered this request in flight itself (408 for a body
 * too slow, 400 for a body that breaks HTTP) and closed the connection: the client got `status`.
 */
export function markAnsweredByConnection(response: ServerResponse, status: number): void {
  response.statusCode = status;
  (response as MarkedResponse)[ANSWERED_BY_CONNECTION] = true;
}

export interface UnfinishedAnswer {
  /** The status to count: what the client got, the failure's own when the gateway cut a stream, else 499. */
  readonly status: number;
  /** True only when the client went away; the gateway cutting the answer is not the client leaving. */
  readonly clientLeft: boolean;
}

/** How an answer that did not complete ended, for the access log and the metrics alike. */
export function unfinishedAnswer(response: Response): UnfinishedAnswer {
  if ((response as MarkedResponse)[ANSWERED_BY_CONNECTION]) return { status: response.statusCode, clientLeft: false };
  const failure = streamErrorOf(response);
  if (failure === undefined || failure === 'TTS_ERR_CANCELLED') return { status: CLIENT_CLOSED, clientLeft: true };
  return { status: ERROR_CATALOGUE[failure].status, clientLeft: false };
}

/**
 * A stop's drain deadline is cutting this answer: the gateway ended it, not its client, so it is
 * logged with `streamError` and counted at 503 (not 499, `aborted`), and its characters are
 * refunded as for any stream the gateway breaks off. A failure already recorded is kept.
 */
export function markCutByStop(response: ServerResponse): void {
  const answer = response as Partial<Response>;
  if (answer.locals === undefined || streamErrorOf(answer as Response) !== undefined) return;
  addAccessLogFields(answer as Response, { streamError: 'TTS_ERR_UNAVAILABLE' });
}
