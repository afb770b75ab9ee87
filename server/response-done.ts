import type { ServerResponse } from 'node:http';

type Done = (completed: boolean) => void;

/** The callbacks waiting for an answer's end, kept on the answer itself. */
const WAITING = Symbol('callbacks waiting for the answer to end');
type TrackedResponse = ServerResponse & { [WAITING]?: Done[] };

/**
 * Calls `done` once per answer: on 'finish' (the whole answer was handed to the socket), or on
 * 'close' when the client left before that. 'finish' comes first on a normal answer, so the
 * request is logged and counted by the time the client has read it. Every caller on one answer
 * shares one pair of listeners (the access log and the metrics each used to add their own).
 */
export function onResponseDone(response: ServerResponse, done: Done): void {
  const tracked = response as TrackedResponse;
  const waiting = tracked[WAITING];
  if (waiting) {
    waiting.push(done);
    return;
  }
  const callbacks: Done[] = [done];
  tracked[WAITING] = callbacks;
  const report = (completed: boolean): void => {
    response.off('finish', onFinish);
    response.off('close', onClose);
    tracked[WAITING] = undefined;
    for (const callback of callbacks) callback(completed);
  };
  const onFinish = (): void => report(true);
  const onClose = (): void => report(response.writableFinished);
  response.on('finish', onFinish);
  response.on('close', onClose);
}
