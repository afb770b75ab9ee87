import { isMainThread, parentPort, type TransferListItem } from 'node:worker_threads';
import { installWasmMemoryMeter, wasmMemoryBytes } from './wasm-memory-meter';
import type { ResultMessage, TaskMessage } from './worker-protocol';

// Worker scripts load this module first, before any codec or engine makes its memory.
if (!isMainThread) installWasmMemoryMeter();

/** What a task handler returns: the result and the buffers to move back to the caller. */
export interface WorkerReply<Result> {
  readonly result: Result;
  readonly transfer?: readonly TransferListItem[];
}

/** What a handler may ask about the task it runs. */
export interface TaskControl {
  /** True once the caller gave up (client gone, deadline passed): stop early, the result is dropped. */
  cancelled(): boolean;
}


export interface ServeOptions {
  /**
   * This worker's memory that only replacing the worker gives back, in bytes, reported with each
   * reply. Default: its WebAssembly memories; a worker whose engine keeps its heap elsewhere adds it.
   */
  readonly retainedBytes?: () => number;
}

/** Called once in a worker script: answers the pool's task messages with `handler`. */
export function serveWorkerTasks<Task, Result>(
  handler: (task: Task, control: TaskControl) => Promise<WorkerReply<Result>> | WorkerReply<Result>,
  options: ServeOptions = {},
): void {
  const retainedBytes = options.retainedBytes ?? wasmMemoryBytes;
  const port = parentPort;
  if (!port) throw new Error('serveWorkerTasks must run inside a worker thread');
  port.on('message', async (message: TaskMessage<Task>) => {
    const flag = new Int32Array(message.cancelFlag);
    const control: TaskControl = { cancelled: () => Atomics.load(flag, 0) !== 0 };
    try {
      const reply = await handler(message.task, control);
      const answer: ResultMessage<Result> = { id: message.id, ok: true, result: reply.result, wasmBytes: retainedBytes() };
      port.postMessage(answer, (reply.transfer ?? []) as TransferListItem[]);
    } catch (error) {
      const text = error instanceof Error ? error.message : String(error);
      // A coded error (GatewayError) keeps its code across the thread boundary.
      const code: unknown = (error as { code?: unknown } | null)?.code;
      const answer: ResultMessage<Result> = { id: message.id, ok: false, error: { message: text, ...(typeof code === 'string' && { code }) }, wasmBytes: retainedBytes() };
      port.postMessage(answer);
    }
  });
}
