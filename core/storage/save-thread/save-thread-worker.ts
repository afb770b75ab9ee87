/**
 * The save thread: creates, writes and flushes files with synchronous system calls, so a save
 * costs the gateway's event loop one message each way instead of four trips through libuv's
 * thread pool (each trip wakes a pool thread and then the event loop; on a small virtual machine
 * those wake-ups cost more CPU than the file work). Orders that arrive together are a batch: all
 * files are written, then flushed, then each folder flushed once (a group commit), the folders
 * of flushes asked alone (a hard link's) with them, and the outcomes go back in one message.
 */
import { closeSync, constants, fdatasyncSync, fstatSync, fsyncSync, openSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { parentPort } from 'node:worker_threads';
import type { FolderFlushOrder, SaveFailure, SaveOrder, SaveOutcome, ThreadOrder } from './save-thread-protocol';

const CREATE_NEW = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL;

/** A folder flushed through a descriptor kept open (one system call per flush), and which folder it is. */
interface KeptFolder {
  readonly descriptor: number;
  readonly device: number;
  readonly inode: number;
}

const keptFolders = new Map<string, KeptFolder>();

let waiting: ThreadOrder[] = [];
let batchScheduled = false;

function failureOf(error: unknown): SaveFailure {
  const failure = error as NodeJS.ErrnoException;
  return { code: failure?.code, syscall: failure?.syscall, message: failure?.message ?? String(error) };
}

function writeWhole(order: SaveOrder, descriptor: number): void {
  for (let offset = 0; offset < order.bytes.byteLength; ) offset += writeSync(descriptor, order.bytes, offset, order.bytes.byteLength - offset);
}

function flushFolder(folder: string): void {
  if (process.platform === 'win32') return; // Windows cannot open a folder to flush it; its file systems journal names themselves.
  const kept = keptFolderOf(folder);
  try {
    fsyncSync(kept.descriptor);
  } catch (error) {
    // A folder unmounted meanwhile: opened afresh next time.
    forgetFolder(folder, kept);
    throw error;
  }
}

/**
 * The kept descriptor of the folder the path names now. A folder deleted (or moved away) and made
 * again under the same path is another folder: flushing the old one would leave the new names
 * unflushed, so a stat per batch checks it (a cheap call beside a flush).
 */
function keptFolderOf(folder: string): KeptFolder {
  const kept = keptFolders.get(folder);
  const current = statSync(folder);
  if (kept && kept.inode === current.ino && kept.device === current.dev) return kept;
  if (kept) {
    forgetFolder(folder, kept);
    // Made again: its own name in its parent is new too, and must survive a crash as its files do.
    flushParentQuietly(folder);
  }
  const descriptor = openSync(folder, 'r');
  const opened = fstatSync(descriptor);
  const fresh = { descriptor, device: opened.dev, inode: opened.ino };
  keptFolders.set(folder, fresh);
  return fresh;
}

/** As the store does when it first makes the folder: a parent the gateway may not read stays as it is. */
function flushParentQuietly(folder: string): void {
  try {
    const descriptor = openSync(dirname(folder), 'r');
    try {
      fsyncSync(descriptor);
    } finally {
      closeSync(descriptor);
    }
  } catch {
    // not allowed there
  }
}

function forgetFolder(folder: string, kept: KeptFolder): void {
  keptFolders.delete(folder);
  closeQuietly(kept.descriptor);
}

/** A descriptor given up on after a failure: the failure is what gets reported. */
function closeQuietly(descriptor: number): void {
  try {
    closeSync(descriptor);
  } catch {
    // already unusable
  }
}

function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // gone already
  }
}

function runBatch(): void {
  batchScheduled = false;
  const batch = waiting;
  waiting = [];
  const failures = new Map<number, SaveFailure>();
  const written: { order: SaveOrder; descriptor: number }[] = [];
  const flushes: FolderFlushOrder[] = [];
  for (const order of batch) {
    if ('folder' in order) {
      flushes.push(order);
      continue;
    }
    let descriptor: number;
    try {
      descriptor = openSync(order.path, CREATE_NEW, order.mode);
    } catch (error) {
      // Nothing was created (a name taken already is someone else's file: left alone).
      failures.set(order.id, failureOf(error));
      continue;
    }
    try {
      writeWhole(order, descriptor);
      written.push({ order, descriptor });
    } catch (error) {
      failures.set(order.id, failureOf(error));
      closeQuietly(descriptor);
      removeQuietly(order.path);
    }
  }
  // The first flush commits what the others wrote as well; theirs then find little left to do.
  for (const { order, descriptor } of written) {
    try {
      fdatasyncSync(descriptor);
    } catch (error) {
      failures.set(order.id, failureOf(error));
      closeQuietly(descriptor);
      continue;
    }
    try {
      closeSync(descriptor);
    } catch (error) {
      // Never closed again: on Linux the number is free after a failed close, maybe reused already.
      failures.set(order.id, failureOf(error));
    }
  }
  // Each folder once, for the files written into it and the flushes asked of it.
  const folders = new Map<string, ThreadOrder[]>();
  const flushWith = (folder: string, order: ThreadOrder): void => {
    const inFolder = folders.get(folder);
    if (inFolder) inFolder.push(order);
    else folders.set(folder, [order]);
  };
  for (const { order } of written) if (!failures.has(order.id)) flushWith(dirname(order.path), order);
  for (const order of flushes) flushWith(order.folder, order);
  for (const [folder, orders] of folders) {
    try {
      flushFolder(folder);
    } catch (error) {
      for (const order of orders) failures.set(order.id, failureOf(error));
    }
  }
  for (const { order } of written) if (failures.has(order.id)) removeQuietly(order.path);
  const outcomes: SaveOutcome[] = batch.map((order) => ({ id: order.id, ...(failures.has(order.id) && { failure: failures.get(order.id) }) }));
  parentPort?.postMessage(outcomes);
}

parentPort?.on('message', (order: ThreadOrder) => {
  waiting.push(order);
  if (batchScheduled) return;
  batchScheduled = true;
  // After the messages already queued are taken in: they join this batch.
  setImmediate(runBatch);
});
