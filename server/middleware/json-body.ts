import { isUtf8 } from 'node:buffer';
import express, { type RequestHandler } from 'express';
import { GatewayError, gatewayError } from '../../core';
import { notUtf8, plainJsonLength, readPlainJson } from './plain-json-body';

/** body-parser marks its errors with a `type`; these are the ones a client causes. */
function translateBodyParserError(error: unknown, limitBytes: number): unknown {
  const type = typeof error === 'object' && error !== null && 'type' in error ? error.type : undefined;
  switch (type) {
    case 'entity.too.large':
      return gatewayError('TTS_ERR_PAYLOAD_TOO_LARGE', { limitBytes });
    case 'entity.parse.failed':
      return new GatewayError('TTS_ERR_MALFORMED_JSON', 'Request body is not valid JSON');
    case 'charset.unsupported':
    case 'encoding.unsupported':
    case 'request.size.invalid':
      return new GatewayError('TTS_ERR_VALIDATION', 'Request body encoding is not supported; send UTF-8 JSON', {
        details: [{ field: 'Content-Type', reason: String(type) }],
      });
    case 'encoding.invalid':
      return notUtf8();
    case 'request.aborted':
      return gatewayError('TTS_ERR_CANCELLED', { subject: 'The request (the client went away)' });
    default:
      return error;
  }
}

/**
 * Parses a JSON body of at most `limitBytes`. A body sent with another Content-Type is refused
 * (400) rather than ignored; a request without a body leaves `request.body` undefined. Plain
 * UTF-8 JSON of a declared length (nearly every request) is read without body-parser.
 */
export function jsonBody(limitBytes: number): RequestHandler {
  const parse = express.json({
    limit: limitBytes,
    strict: true,
    // Raw (inflated) bytes before decoding: refused rather than read with U+FFFD in place of each stray byte.
    verify: (request, response, bytes, encoding) => {
      if (encoding.toLowerCase().replace('-', '') === 'utf8' && !isUtf8(bytes)) throw Object.assign(new Error('not UTF-8'), { type: 'encoding.invalid' });
    },
  });
  return function parseJsonBody(request, response, next) {
    const plainLength = plainJsonLength(request, limitBytes);
    if (plainLength !== undefined) {
      readPlainJson(request, plainLength, (error, body) => {
        if (error) return next(error);
        request.body = body;
        next();
      });
      return;
    }
    // type-is counts `Content-Length: 0` as a body; an empty POST is simply a request without one.
    const hasBody = request.get('Transfer-Encoding') !== undefined || Number(request.get('Content-Length') ?? 0) > 0;
    if (hasBody && request.is('application/json') === false) {
      next(
        new GatewayError('TTS_ERR_VALIDATION', 'Content-Type must be application/json', {
          details: [{ field: 'Content-Type', reason: 'must be application/json' }],
        }),
      );
      return;
    }
    let answered = false;
    const finish = (error?: unknown): void => {
      if (answered) return;
      answered = true;
      request.off('data', countBytes);
      if (!error) return next();
      const translated = translateBodyParserError(error, limitBytes);
      // A body that grew past the limit (no Content-Length) is not read on: close after the answer.
      if ((translated as { code?: string }).code === 'TTS_ERR_PAYLOAD_TOO_LARGE') response.setHeader('Connection', 'close');
      next(translated);
    };
    // body-parser reads a body past the limit to its end before it answers: one that does not end
    // would get a 408, an endless one be taken in whole. Counted here, it is refused at once (the
    // bytes as sent: a compressed JSON body over the limit is larger still once inflated).
    let received = 0;
    const countBytes = (piece: Buffer): void => {
      received += piece.length;
      if (received > limitBytes) finish(gatewayError('TTS_ERR_PAYLOAD_TOO_LARGE', { limitBytes }));
    };
    request.on('data', countBytes);
    parse(request, response, finish);
  };
}
