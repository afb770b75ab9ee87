import WebSocket, { type RawData } from 'ws';
import { badUpstreamResponse } from '../../core';
import { cancelled, HandshakeRefused, PROVIDER, serviceRefused, timedOut, unreachable } from './errors';
import { parseBinaryFrame, parseTextFrame } from './protocol';

/** One synthesis turn on its own connection, as the browser does it. */
export interface EdgeTurn {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly requestId: string;
  /** Text frames sent once the socket opens (speech.config, then ssml). */
  readonly messages: readonly string[];
  readonly timeoutMs: number;
  readonly signal: AbortSignal;
}

function toBytes(data: RawData): Uint8Array {
  if (Array.isArray(data)) return new Uint8Array(Buffer.concat(data));
  return data instanceof ArrayBuffer ? new Uint8Array(data) : new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
}

/**
 * Runs one turn and resolves with the audio of every `Path:audio` frame once `turn.end` comes.
 * A refused upgrade rejects with {@link HandshakeRefused}; everything else with core's errors:
 * closed or silent service -> 503, timeout -> 504, cancellation -> 499, garbled frame -> 502.
 */
export function runEdgeTurn(turn: EdgeTurn): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    if (turn.signal.aborted) return reject(cancelled());
    const chunks: Uint8Array[] = [];
    let settled = false;
    const socket = new WebSocket(turn.url, { headers: { ...turn.headers } });

    const finish = (error: Error | undefined) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      turn.signal.removeEventListener('abort', onAbort);
      socket.removeAllListeners();
      socket.on('error', () => undefined); // late errors of a socket being torn down
      if (socket.readyState === WebSocket.OPEN) socket.close(1000);
      else socket.terminate();
      if (error) reject(error);
      else resolve(new Uint8Array(Buffer.concat(chunks)));
    };
    const onAbort = () => finish(cancelled());
    const timer = setTimeout(() => finish(timedOut(turn.timeoutMs)), turn.timeoutMs);
    turn.signal.addEventListener('abort', onAbort, { once: true });

    socket.on('unexpected-response', (_request, response) => {
      response.resume();
      finish(new HandshakeRefused(response.statusCode ?? 0, response.headers.date));
    });
    socket.on('open', () => {
      for (const message of turn.messages) socket.send(message);
    });
    socket.on('message', (data, isBinary) => {
      const bytes = toBytes(data);
      if (isBinary) {
        const frame = parseBinaryFrame(bytes);
        if (!frame) return finish(badUpstreamResponse(PROVIDER, 'a binary frame is shorter than its header'));
        if (frame.headers.Path === 'audio' && frame.headers['X-RequestId'] === turn.requestId && frame.body.byteLength > 0) chunks.push(frame.body);
        return;
      }
      const frame = parseTextFrame(new TextDecoder().decode(bytes));
      if (frame.headers.Path !== 'turn.end') return; // turn.start, response, audio.metadata
      finish(chunks.length > 0 ? undefined : serviceRefused('it ended the turn without audio'));
    });
    socket.on('close', (code) => finish(serviceRefused(`it closed the socket with code ${code} before the turn ended`)));
    socket.on('error', (error) => finish(unreachable(error)));
  });
}
