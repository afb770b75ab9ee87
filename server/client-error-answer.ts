import { randomUUID } from 'node:crypto';
import { maxHeaderSize, STATUS_CODES, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { gatewayError, type GatewayError } from '../core';
import { renderEnvelope } from './middleware/error-handler';
import { renderOpenAiError } from './openai/openai-error';
import { markAnsweredByConnection } from './unfinished-answer';
import type { UnreadRefusal } from './unread-refusals';

/** What Node's HTTP layer hands to 'clientError': a parser error carries the bytes it read. */
interface ClientError extends Error {
  readonly code?: string;
  readonly rawPacket?: Buffer;
}

/** Node keeps the answer in flight on its socket: only before its headers went out may another be written. */
interface ServerSocket extends Socket {
  readonly _httpMessage?: ServerResponse | null;
}

const OPENAI_REQUEST_LINE = /^[A-Z]+ \/v1\//;

/** The codes as Node's own answers map them (431, 408, and 400 for anything else). */
function errorFor(error: ClientError, limitBytes: number): GatewayError {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return gatewayError('TTS_ERR_HEADERS_TOO_LARGE', { limitBytes });
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return gatewayError('TTS_ERR_REQUEST_TIMEOUT', {});
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return gatewayError('TTS_ERR_VALIDATION', { problem: 'The chunk extensions of the request body are too large' });
    default:
      return gatewayError('TTS_ERR_VALIDATION', { problem: 'The request is not valid HTTP/1.1' });
  }
}

/** Whether the request was for the OpenAI-compatible API: from the bytes read, or the request in flight. */
function forOpenAi(error: ClientError, socket: ServerSocket): boolean {
  // Within a mounted router Express shortens `url`; `originalUrl` keeps the path as it came.
  const request = socket._httpMessage?.req as { originalUrl?: string; url?: string } | undefined;
  const url = request?.originalUrl ?? request?.url;
  if (url !== undefined) return url.startsWith('/v1/');
  return error.rawPacket !== undefined && OPENAI_REQUEST_LINE.test(error.rawPacket.subarray(0, 16).toString('latin1'));
}

/**
 * The id of the answer: the one the app gave the request in flight (a body too slow), else a new
 * one. Every answer carries one (README, Headers); the OpenAI SDKs show it as the error's `requestID`.
 */
function requestIdFor(socket: ServerSocket): string {
  const assigned = socket._httpMessage?.getHeader('X-Request-Id');
  return typeof assigned === 'string' ? assigned : randomUUID();
}

/** The whole answer, written straight to the socket: there is no response object for a request Node could not read. */
function rawAnswer(error: ClientError, socket: ServerSocket, limitBytes: number, requestId: string): { text: string; status: number; code: string } {
  const refusal = errorFor(error, limitBytes);
  const { status, body } = (forOpenAi(error, socket) ? renderOpenAiError : renderEnvelope)(refusal);
  // A request in flight is logged and counted with the status its client got, not as one that left.
  if (socket._httpMessage) markAnsweredByConnection(socket._httpMessage, status);
  const json = JSON.stringify(body);
  const text =
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\n` +
    `X-Request-Id: ${requestId}\r\n` +
    'Content-Type: application/json; charset=utf-8\r\n' +
    `Content-Length: ${Buffer.byteLength(json)}\r\n` +
    'Cache-Control: no-store\r\nConnection: close\r\n\r\n' +
    json;
  return { text, status, code: refusal.code };
}

/**
 * Answers what Node's HTTP layer refuses before the app sees a request (a malformed request,
 * headers over the size limit, a client too slow with its headers or body) as every other error
 * is answered: the spec's envelope, or OpenAI's error shape for `/v1`, with a code from the
 * catalogue. Node's own answers carry no body. As Node does, it writes only when nothing of an
 * answer in flight has gone out, then closes the connection.
 */
export function answerClientErrors(limitBytes: number = maxHeaderSize, onUnread?: (refusal: UnreadRefusal) => void): (error: ClientError, socket: Socket) => void {
  return (error, socket) => {
    const serverSocket = socket as ServerSocket;
    const inFlight = serverSocket._httpMessage;
    if (error.code !== 'ECONNRESET' && socket.writable && !inFlight?.headersSent) {
      const requestId = requestIdFor(serverSocket);
      const { text, status, code } = rawAnswer(error, serverSocket, limitBytes, requestId);
      socket.write(text);
      // A request in flight is logged and counted by the app; one never read, only here.
      if (!inFlight) onUnread?.({ status, code, requestId });
    }
    socket.destroy();
  };
}
