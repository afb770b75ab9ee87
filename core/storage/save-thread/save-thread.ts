import { unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { raceAbort } from '../../abort/race-abort';
import { TurnoverTable } from '../../objects/turnover-table';
import type { SaveFailure, SaveOutcomes, ThreadOrder } from './save-thread-protocol';

/** The thread stopped or died with the save pending: what it wrote of it is unknown. */
class SaveThreadLost extends Error {}

interface PendingSave {
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

/** A file system error as Node would have thrown it, with its code and system call. */
function errorOf(failure: SaveFailure): Error {
  return Object.assign(new Error(failure.message), { code: failure.code, syscall: failure.syscall });
}

/**
 * Durable saves on a thread of their own (`save-thread-worker`), started at the first save.
 * Each path must be new (the stores' names are unguessable): the save never replaces a file.
 * `write` resolves once the file's data and its name in the folder are on disk. A save whose
 * signal aborted before it was done is removed and rejected with the signal's reason, as no one
 * will be given its name. If the thread dies, its pending saves fail and the next save starts a
 * new one.
 */
export class SaveThread {
  private worker: Worker | undefined;
  private readonly pending = new TurnoverTable<PendingSave>();
  private nextId = 0;

  async write(path: string, bytes: Uint8Array, mode: number, signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    const saved = this.order((id) => ({ id, path, bytes, mode }));
    // A thread that died midway may have left part of the file; a failure it reported left nothing.
    const removeLeftover = (error: unknown): Promise<void> => (error instanceof SaveThreadLost ? unlink(path).catch(() => undefined) : Promise.resolve());
    try {
      // The signal is the request's deadline: a stalled disk must not hold the answer past it.
      await (signal ? raceAbort(saved, signal, () => signal.reason) : saved);
    } catch (error) {
      if (signal?.aborted && error === signal.reason) {
        // Given up on while the thread still has it: what it writes later is removed then.
        void saved.then(() => unlink(path).catch(() => undefined), removeLeftover);
        throw error;
      }
      await removeLeftover(error);
      throw error;
    }
    if (signal?.aborted) {
      await unlink(path).catch(() => undefined);
      signal.throwIfAborted();
    }
  }

  /**
   * Flushes a folder's entries (a name made elsewhere, such as a hard link), shared with the
   * saves of the same batch: one message each way, the folder looked up and flushed there.
   */
  flushFolder(folder: string): Promise<void> {
    return this.order((id) => ({ id, folder }));
  }

  /** Sends an order and waits for its outcome. */
  private order(make: (id: number) => ThreadOrder): Promise<void> {
    const id = this.nextId++;
    const done = new Promise<void>((resolve, reject) => this.pending.set(id, { resolve, reject }));
    this.started().postMessage(make(id));
    return done;
  }

  /** Stops the thread (saves still pending fail). */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    this.failAll(new SaveThreadLost('the save thread was closed'));
    await worker?.terminate();
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(join(__dirname, 'save-thread-worker.js'), { name: 'audio-save' });
    // Idle, it must not keep the process alive; with saves pending, their requests do.
    worker.unref();
    worker.on('message', (outcomes: SaveOutcomes) => {
      for (const outcome of outcomes) {
        const save = this.pending.get(outcome.id);
        this.pending.delete(outcome.id);
        if (outcome.failure) save?.reject(errorOf(outcome.failure));
        else save?.resolve();
      }
    });
    const lost = (reason: string): void => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      this.failAll(new SaveThreadLost(reason));
    };
    worker.on('error', (error) => lost(`the save thread failed: ${error.message}`));
    worker.on('exit', (code) => lost(`the save thread exited with code ${code}`));
    this.worker = worker;
    return worker;
  }

  private failAll(error: SaveThreadLost): void {
    for (const save of this.pending.values()) save.reject(error);
    this.pending.clear();
  }
}

/** The process's one save thread, shared by every file system store. */
export const processSaveThread = new SaveThread();
