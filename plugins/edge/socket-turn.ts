import WebSocket, { type RawData } from 'ws';
import { badUpstreamResponse } from '../../core';
import { cancelled, HandshakeRefused, PROVIDER, serviceRefused, timedOut, unreachable } from './errors';
import { parseBinaryFrame, parseTextFrame } from './protocol';
import { TurnAudio } from './turn-audio';

/** One synthesis turn on its own connection, as the browser does it. */
export interface EdgeTurn {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly requestId: string;
  /** Text frames sent once the socket opens (speech.config, then ssml). */
  readonly messages: readonly string[];
  /** The longest the service may stay silent (before the first frame and between two frames). */
  readonly timeoutMs: number;
  readonly signal: AbortSignal;
}

function toBytes(data: RawData): Uint8Array {
  if (Array.isArray(data)) return new Uint8Array(Buffer.concat(data));
  return data instanceof ArrayBuffer ? new Uint8Array(data) : new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
}

/**
 * Opens one turn and resolves with its audio as the service sends it, once the first `Path:audio`
 * frame has come: the audio of every later frame follows as it arrives, and the stream ends with
 * `turn.end`. Before the first audio, a refused upgrade rejects with {@link HandshakeRefused} and
 * everything else with core's errors: closed or silent service -> 503, a silence longer than
 * `timeoutMs` -> 504, cancellation -> 499, garbled frame -> 502; after it, the same errors are
 * thrown by the stream. Stopping the stream, or aborting the signal, closes the socket.
 */
export function openEdgeTurn(turn: EdgeTurn): Promise<AsyncIterable<Uint8Array>> {
  return new Promise((resolve, reject) => {
    if (turn.signal.aborted) return reject(cancelled());
    let audio: TurnAudio | undefined;
    let closed = false;
    const socket = new WebSocket(turn.url, { headers: { ...turn.headers } });

    /** Ends the turn: the audio is complete (no error), broken off (error) or no longer wanted. */
    const close = (error?: Error) => {
      if (closed) return;
      closed = true;
      clearTimeout(timer);
      turn.signal.removeEventListener('abort', onAbort);
      socket.removeAllListeners();
      socket.on('error', () => undefined); // late errors of a socket being torn down
      if (socket.readyState === WebSocket.OPEN) socket.close(1000);
      else socket.terminate();
      if (!audio) reject(error ?? serviceRefused('it ended the turn without audio'));
      else if (error) audio.fail(error);
      else audio.end();
    };
    const onAbort = () => close(cancelled());
    let timer = setTimeout(() => close(timedOut(turn.timeoutMs)), turn.timeoutMs);
    const touch = () => {
      clearTimeout(timer);
      timer = setTimeout(() => close(timedOut(turn.timeoutMs)), turn.timeoutMs);
    };
    turn.signal.addEventListener('abort', onAbort, { once: true });

    socket.on('unexpected-response', (_request, response) => {
      response.resume();
      close(new HandshakeRefused(response.statusCode ?? 0, response.headers.date));
    });
    socket.on('open', () => {
      for (const message of turn.messages) socket.send(message);
    });
    socket.on('message', (data, isBinary) => {
      touch();
      const bytes = toBytes(data);
      if (isBinary) {
        const frame = parseBinaryFrame(bytes);
        if (!frame) return close(badUpstreamResponse(PROVIDER, 'a binary frame is shorter than its header'));
        if (frame.headers.Path !== 'audio' || frame.headers['X-RequestId'] !== turn.requestId || frame.body.byteLength === 0) return;
        if (audio) return audio.push(frame.body);
        audio = new TurnAudio(() => close());
        audio.push(frame.body);
        return resolve(audio);
      }
      const frame = parseTextFrame(new TextDecoder().decode(bytes));
      if (frame.headers.Path === 'turn.end') close(); // else turn.start, response, audio.metadata
    });
    socket.on('close', (code) => close(serviceRefused(`it closed the socket with code ${code} before the turn ended`)));
    socket.on('error', (error) => close(unreachable(error)));
  });
}
