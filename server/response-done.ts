import type { ServerResponse } from 'node:http';

/**
 * Calls `done` once per answer: on 'finish' (the whole answer was handed to the socket), or on
 * 'close' when the client left before that. 'finish' comes first on a normal answer, so the
 * request is logged and counted by the time the client has read it.
 */
export function onResponseDone(response: ServerResponse, done: (completed: boolean) => void): void {
  let called = false;
  const report = (completed: boolean) => {
    if (called) return;
    called = true;
    done(completed);
  };
  response.once('finish', () => report(true));
  response.once('close', () => report(response.writableFinished));
}
