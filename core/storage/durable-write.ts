import { close, constants, fdatasync, open, unlink, write } from 'node:fs';
import { promisify } from 'node:util';

const openFile = promisify(open);
const writeFile = promisify(write);
const flushFileData = promisify(fdatasync);
const removeFile = promisify(unlink);

/**
 * Where the platform has O_DSYNC, each write returns only once its data (and the file size that
 * finds it) is on disk, as write + fdatasync would: one trip to libuv's thread pool fewer per
 * file, and on a 2-core machine each trip is two thread wake-ups. Elsewhere (Windows) the data
 * is flushed after the write.
 */
const DATA_SYNC_FLAG: number | undefined = constants.O_DSYNC;
const CREATE_NEW = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL;

export interface DurableWriteOptions {
  /** Stops the write between its system calls; a file whose signal aborted before it was done is removed. */
  readonly signal?: AbortSignal;
  /**
   * Runs once the file exists under its name, beside the write: the flush of its folder, so the
   * name and the data reach the disk together rather than one after the other.
   */
  readonly onCreated?: () => Promise<void>;
}

/**
 * Creates `path` (it must not exist yet), writes all of `bytes` and resolves once they and the
 * folder work of `onCreated` are durable. A failure or an abort removes the file, so nothing
 * half-written is left. The descriptor is closed without waiting: a failing close cannot undo a
 * flush that already happened.
 */
export async function writeNewFileDurably(path: string, bytes: Uint8Array, mode: number, options: DurableWriteOptions = {}): Promise<void> {
  options.signal?.throwIfAborted();
  const descriptor = await openFile(path, CREATE_NEW | (DATA_SYNC_FLAG ?? 0), mode);
  try {
    await Promise.all([writeAll(descriptor, bytes, options.signal), options.onCreated?.()]);
    if (DATA_SYNC_FLAG === undefined) await flushFileData(descriptor);
    // A save stopped meanwhile is not kept: no one will be given its name.
    options.signal?.throwIfAborted();
  } catch (error) {
    close(descriptor, () => undefined);
    await removeFile(path).catch(() => undefined);
    throw error;
  }
  close(descriptor, () => undefined);
}

/** A write may take fewer bytes than asked (a signal, a quota): the rest follows. */
async function writeAll(descriptor: number, bytes: Uint8Array, signal: AbortSignal | undefined): Promise<void> {
  let offset = 0;
  while (offset < bytes.byteLength) {
    signal?.throwIfAborted();
    const { bytesWritten } = await writeFile(descriptor, bytes, offset, bytes.byteLength - offset, offset);
    offset += bytesWritten;
  }
}
