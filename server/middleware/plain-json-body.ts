import { isUtf8 } from 'node:buffer';
import type { IncomingMessage } from 'node:http';
import { GatewayError, gatewayError } from '../../core';

/** `application/json`, with no charset or UTF-8 named: the type almost every client sends. */
const PLAIN_JSON_TYPE = /^application\/json\s*(?:;\s*charset\s*=\s*"?utf-?8"?\s*)?$/i;
const BYTE_ORDER_MARK = 0xfeff;

/**
 * The declared length of a body this reader can take alone: plain UTF-8 JSON, not compressed,
 * not chunked, of a length given and within `limitBytes`. Anything else (compressed, chunked,
 * another charset) is left to body-parser, which knows every case.
 */
export function plainJsonLength(request: IncomingMessage, limitBytes: number): number | undefined {
  const headers = request.headers;
  if (headers['content-encoding'] !== undefined || headers['transfer-encoding'] !== undefined) return undefined;
  const type = headers['content-type'];
  if (type === undefined || !PLAIN_JSON_TYPE.test(type)) return undefined;
  const declared = headers['content-length'];
  if (declared === undefined || !/^\d{1,15}$/.test(declared)) return undefined;
  const length = Number(declared);
  return length > 0 && length <= limitBytes ? length : undefined;
}

/**
 * Reads a body `plainJsonLength` accepted and parses it as body-parser's strict mode does (an
 * object or an array at the top, a leading byte order mark skipped), without its stream decoder,
 * charset lookup and error objects.
 */
export function readPlainJson(request: IncomingMessage, length: number, done: (error: unknown, body?: unknown) => void): void {
  const pieces: Buffer[] = [];
  let received = 0;
  const onData = (piece: Buffer): void => {
    pieces.push(piece);
    received += piece.length;
  };
  const onEnd = (): void => {
    stopListening();
    // Node's parser ends a body at its declared length; fewer bytes means the client went away.
    if (received !== length) done(cancelled());
    else parseStrict(pieces.length === 1 ? pieces[0] : Buffer.concat(pieces, received), done);
  };
  const onGone = (): void => {
    stopListening();
    done(cancelled());
  };
  const stopListening = (): void => {
    request.off('data', onData);
    request.off('end', onEnd);
    request.off('error', onGone);
    request.off('close', onGone);
  };
  request.on('data', onData);
  request.on('end', onEnd);
  request.on('error', onGone);
  request.on('close', onGone);
}

function parseStrict(bytes: Buffer, done: (error: unknown, body?: unknown) => void): void {
  // Decoding would turn each stray byte (Latin-1 text sent as JSON) into U+FFFD without a word.
  if (!isUtf8(bytes)) {
    done(notUtf8());
    return;
  }
  let text = bytes.toString('utf8');
  if (text.charCodeAt(0) === BYTE_ORDER_MARK) text = text.slice(1);
  const first = text.trimStart()[0];
  if (first !== '{' && first !== '[') {
    done(malformed());
    return;
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    done(malformed());
    return;
  }
  done(undefined, body);
}

/** A body of bytes that are no UTF-8 (400): body-parser's path raises it from its `verify` hook too. */
export const notUtf8 = (): GatewayError =>
  new GatewayError('TTS_ERR_VALIDATION', 'Request body is not valid UTF-8; send UTF-8 JSON', { details: [{ field: 'Content-Type', reason: 'encoding.invalid' }] });
const malformed = (): GatewayError => new GatewayError('TTS_ERR_MALFORMED_JSON', 'Request body is not valid JSON');
const cancelled = (): GatewayError => gatewayError('TTS_ERR_CANCELLED', { subject: 'The request (the client went away)' });
