import { threadId } from 'node:worker_threads';
import { GatewayError } from '../../../core/errors';
import { serveWorkerTasks, wasmMemoryBytes } from '../../../core/workers';

export type TestTask =
  | { kind: 'double'; value: number }
  | { kind: 'coded-failure' }
  | { kind: 'crash' }
  | { kind: 'wait'; ms: number }
  | { kind: 'thread' }
  | { kind: 'byte-length'; bytes: Uint8Array }
  /** Holds the worker until the caller stores 1 in the flag's first Int32. */
  | { kind: 'block'; flag: SharedArrayBuffer }
  /** Runs until its caller gives up (the pool's cancel flag); answers 1 then. */
  | { kind: 'until-cancelled' }
  /** Grows a WebAssembly memory kept by the thread by `megabytes`; answers the thread's WebAssembly bytes. */
  | { kind: 'grow-wasm'; megabytes: number };

/** Memories this thread keeps alive, as a codec's module would. */
const kept: unknown[] = [];
const wasm = (globalThis as unknown as { WebAssembly: { Memory: new (descriptor: { initial: number; maximum: number }) => { grow(pages: number): number } } }).WebAssembly;
const PAGES_PER_MEGABYTE = 16;

/** A worker for the pool's tests: doubles numbers, names its thread, fails or crashes on demand. */
serveWorkerTasks<TestTask, number>(async (task, control) => {
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
    case 'until-cancelled': {
      while (!control.cancelled()) await new Promise((resolve) => setTimeout(resolve, 5));
      return { result: 1 };
    }
    case 'grow-wasm': {
      const memory = new wasm.Memory({ initial: 1, maximum: 65536 });
      memory.grow(task.megabytes * PAGES_PER_MEGABYTE);
      kept.push(memory);
      return { result: wasmMemoryBytes() };
    }
    case 'crash':
      process.exit(3);
  }
});
