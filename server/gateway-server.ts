import type { IncomingMessage, ServerOptions, ServerResponse, Server } from 'node:http';
import type { Application } from 'express';
import type { ServerConfig } from '../config/types';
import { holdWritesToPassEnd } from '../core';
import { answerClientErrors } from './client-error-answer';
import { createHttpServer } from './http-server';
import { declaredBodyTooLarge } from './middleware/refuse-oversized-body';
import type { UnreadRefusal } from './unread-refusals';

/** How often the server looks for connections past their header or request timeout. */
function checkingIntervalMs(config: ServerConfig): number {
  return Math.max(50, Math.min(1000, Math.floor(config.headersTimeoutMs / 2)));
}

/**
 * A streamed answer waits for the client once this much is unsent (Node's default is 16 KB): a
 * typical piece of audio (an upstream's 20 KB answer) then does not wait for the socket before
 * the stream's end is known, so piece and end leave in one write. Still bounded per connection.
 */
const SOCKET_BUFFER_BYTES = 64 * 1024;

/** The timeouts, given at creation (Node reads the checking interval only then). */
function connectionOptions(config: ServerConfig): ServerOptions {
  return {
    highWaterMark: SOCKET_BUFFER_BYTES,
    headersTimeout: config.headersTimeoutMs,
    requestTimeout: config.requestTimeoutMs,
    keepAliveTimeout: config.keepAliveTimeoutMs,
    connectionsCheckingInterval: checkingIntervalMs(config),
  };
}

/**
 * The HTTP server of the gateway, with its connection limits: at most `maxConnections` open (more
 * are closed at once), `headersTimeout` to send the headers and `requestTimeout` for the whole
 * request (an idle or slow client gets 408 and is cut off), `keepAliveTimeout` between requests.
 * A client that asks before sending its body (`Expect: 100-continue`) and declares one over the
 * body limit is answered 413 without the go-ahead, so the body is never sent. What Node refuses
 * before the app sees a request (bad HTTP, headers too large, a timeout) is answered with a coded
 * error as well (`answerClientErrors`), and told to `onUnreadRefusal` when no request was read.
 * Answers are written at the end of the event loop's pass (`holdWritesToPassEnd`).
 */
export function createGatewayServer(app: Application, config: ServerConfig, onUnreadRefusal?: (refusal: UnreadRefusal) => void): Server {
  const server = createHttpServer(app, connectionOptions(config));
  server.maxConnections = config.maxConnections;
  server.on('connection', holdWritesToPassEnd);
  server.on('clientError', answerClientErrors(undefined, onUnreadRefusal));
  server.on('checkContinue', (request: IncomingMessage, response: ServerResponse) => {
    if (!declaredBodyTooLarge(request, config.bodyLimitBytes)) response.writeContinue();
    server.emit('request', request, response);
  });
  return server;
}
