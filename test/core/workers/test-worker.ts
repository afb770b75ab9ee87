import { threadId } from 'node:worker_threads';
import { GatewayError } from '../../../core/errors';
import { serveWorkerTasks } from '../../../core/workers';

export type TestTask =
  | { kind: 'double'; value: number }
  | { kind: 'coded-failure' }
  | { kind: 'crash' }
  | { kind: 'wait'; ms: number }
  | { kind: 'thread' }
  | { kind: 'byte-length'; bytes: Uint8Array }
  /** Holds the worker until the caller stores 1 in the flag's first Int32. */
  | { kind: 'block'; flag: SharedArrayBuffer };

/** A worker for the pool's tests: doubles numbers, names its thread, fails or crashes on demand. */
serveWorkerTasks<TestTask, number>(async (task) => {
  switch (task.kind) {
    case 'double':
      return { result: task.value * 2 };
    case 'coded-failure':
      throw new GatewayError('TTS_ERR_UNSUPPORTED_FORMAT', 'no such format');
    case 'wait':
      await new Promise((resolve) => setTimeout(resolve, task.ms));
      return { result: task.ms };
    case 'thread':
      return { result: threadId };
    case 'byte-length':
      return { result: task.bytes.byteLength };
    case 'block': {
      // Blocking is fine here: this thread has nothing else to do until released.
      Atomics.wait(new Int32Array(task.flag), 0, 0);
      return { result: 0 };
    }
    case 'crash':
      process.exit(3);
  }
});
