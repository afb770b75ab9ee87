import { randomBytes } from 'node:crypto';
import { link, mkdir, open, readdir, stat, unlink, utimes } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { audioNotFound, AUDIO_FILE_NAME_PATTERN, newAudioFileName, parseAudioFileName } from './audio-file-name';
import type { AudioStore, ByteRange, LocatedAudio, ReadOptions, SaveAudioOptions, SavedAudio } from './audio-store';
import { DirectorySync, fsyncDirectory, type SyncDirectory } from './directory-sync';
import { writeNewFileDurably } from './durable-write';
import { processSaveThread } from './save-thread/save-thread';
import { OwnerLedger, type StoredBytes } from './owner-ledger';
import { storageFailure, storageReadFailure, withoutPath } from './storage-failure';
import { startSweeper } from './sweeper';

/** A stat's codes for a name that is not there (its folder included): the file is gone. */
const GONE = new Set(['ENOENT', 'ENOTDIR']);
/** Write probes (and files of earlier versions, which were renamed into place) carry it; leftovers are swept. */
const TEMPORARY_PREFIX = '.tmp-';

export interface FileSystemAudioStoreOptions {
  /** Clock, replaceable in tests. */
  readonly now?: () => number;
  /** Told about a failed background sweep (the sweeper never throws). */
  readonly onSweepError?: (error: unknown) => void;
  /**
   * Flushes the folder's entries; replaceable in tests. When given, saves run through libuv's
   * thread pool and call it; otherwise the save thread writes and flushes files and folder itself.
   */
  readonly syncDirectory?: SyncDirectory;
}

/** A file found on disk: LocatedAudio plus where it is. */
export interface LocatedFile extends LocatedAudio {
  /** Absolute path inside the store's directory. */
  readonly path: string;
}

/** AudioStore on a local (or shared, mounted) directory. */
export class FileSystemAudioStore implements AudioStore {
  private readonly directory: string;
  private readonly now: () => number;
  private ready: Promise<unknown> | undefined;
  /** Flushes the folder's entries (a hard link's new name), shared with concurrent saves. */
  private readonly flushFolder: () => Promise<void>;
  private readonly syncDirectory: SyncDirectory;
  private readonly ledger: OwnerLedger;
  private readonly writeDurably: (path: string, bytes: Uint8Array, mode: number, signal?: AbortSignal) => Promise<void>;

  constructor(
    directory: string,
    private readonly retentionMs: number,
    private readonly options: FileSystemAudioStoreOptions = {},
  ) {
    this.directory = resolve(directory);
    this.now = options.now ?? Date.now;
    this.syncDirectory = options.syncDirectory ?? fsyncDirectory;
    this.ledger = new OwnerLedger(this.directory, retentionMs);
    if (options.syncDirectory) {
      const directorySync = new DirectorySync(this.directory, options.syncDirectory);
      this.flushFolder = () => directorySync.sync();
      this.writeDurably = (path, bytes, mode, signal) => writeNewFileDurably(path, bytes, mode, { signal, onCreated: () => directorySync.sync() });
    } else {
      // Saves, and the folder flushes of hard links, on the save thread: batched together there.
      this.flushFolder = () => processSaveThread.flushFolder(this.directory);
      this.writeDurably = (path, bytes, mode, signal) => processSaveThread.write(path, bytes, mode, signal);
    }
  }

  async save(bytes: Uint8Array, extension: string, options: SaveAudioOptions = {}): Promise<SavedAudio> {
    const { fileName } = newAudioFileName(extension, options.sampleRate);
    // Written straight under its final name: the name is unguessable and reaches no one before
    // save() resolves, so no reader can see the file incomplete, and a rename would only add a
    // system call and a wait. The file's data and the folder are flushed (so the new name
    // survives a crash too); saves made together share one folder flush.
    // A write that fails (a full disk: 507) or is stopped (`signal`) removes what it wrote, and
    // the next save starts from scratch, so the store recovers by itself once there is room.
    const target = join(this.directory, fileName);
    let owned: Promise<() => Promise<void>> | undefined;
    try {
      options.signal?.throwIfAborted();
      await this.folderReady();
      // The owner's ledger entry is made while the file is written, not after: one wait less.
      owned = options.owner === undefined ? undefined : this.ledger.record(options.owner, bytes.byteLength, this.now());
      owned?.catch(() => undefined); // awaited below; this only keeps an early failure from going unhandled meanwhile
      await this.writeDurably(target, bytes, 0o600, options.signal).catch((error: unknown) => this.againInFolderMadeAgain(error, () => this.writeDurably(target, bytes, 0o600, options.signal)));
    } catch (error) {
      void owned?.then((takeBack) => takeBack(), () => undefined);
      throw storageFailure(error);
    }
    if (owned) await this.ownedOrRemoved(owned, target);
    return { fileName, size: bytes.byteLength };
  }

  /**
   * A hard link: a second name for the same bytes, none copied; undefined for a file gone or
   * expired. The file's time is renewed first,
   * so the new name lives a full retention (the older name with it), and a sweep that removes
   * the old name meanwhile makes this a miss, never a name that vanishes once given out. Then
   * the folder is flushed (shared with concurrent saves), so the name survives a crash too.
   * Stopped by `options.signal` (the hit's client left, its read deadline passed), it rejects
   * with the signal's reason and leaves neither the name nor an owner's entry: no one will be
   * given that name, so it must not count against the owner's quota.
   */
  async share(fileName: string, options: Pick<SaveAudioOptions, 'owner' | 'signal'> = {}): Promise<SavedAudio | undefined> {
    const { extension, sampleRate } = parseAudioFileName(fileName);
    const source = join(this.directory, fileName);
    const { fileName: sharedName } = newAudioFileName(extension, sampleRate);
    const target = join(this.directory, sharedName);
    const { signal } = options;
    signal?.throwIfAborted();
    const found = await this.locate(fileName);
    if (!found) return undefined;
    const now = new Date(this.now());
    try {
      signal?.throwIfAborted();
      await utimes(source, now, now);
      await link(source, target);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // EMLINK: the file has as many names as its file system allows (ext4: 65,000; every hit
      // renews them all): a miss, so that the result is made afresh in a file of its own.
      if (code === 'ENOENT' || code === 'EMLINK') return undefined;
      throw signal?.aborted ? signal.reason : storageFailure(error);
    }
    try {
      await this.flushFolder();
      signal?.throwIfAborted();
    } catch (error) {
      await unlink(target).catch(() => undefined);
      throw signal?.aborted ? signal.reason : storageFailure(error);
    }
    const { size } = found;
    if (options.owner !== undefined) {
      const owned = this.ledger.record(options.owner, size, this.now());
      await this.ownedOrRemoved(owned, target);
      if (signal?.aborted) {
        await (await owned)();
        await unlink(target).catch(() => undefined);
        throw signal.reason;
      }
    }
    return { fileName: sharedName, size };
  }

  /** Bytes of live files saved for `owner` (for `limits.storageBytes`). */
  storedBytes(owner: string): Promise<StoredBytes> {
    return this.ledger.storedBytes(owner, this.now());
  }

  /**
   * The folder is made once, and its own name flushed in its parent where that is allowed (a
   * parent the gateway may not read stays as it is). A failure (a full disk) is not remembered,
   * so the next save tries again.
   */
  private folderReady(): Promise<unknown> {
    this.ready ??= makeFolder(this.directory)
      .then(() => this.syncDirectory(dirname(this.directory)).catch(() => undefined))
      .catch((error: unknown) => {
        this.ready = undefined;
        throw error;
      });
    return this.ready;
  }

  /**
   * `write` once more after the folder was found gone (ENOENT: removed under the running gateway,
   * by hand or by a cleaner of old folders) and made again; any other failure as it is. Without
   * this every save would fail until a readiness check made the folder again.
   */
  private async againInFolderMadeAgain(failure: unknown, write: () => Promise<void>): Promise<void> {
    if ((failure as NodeJS.ErrnoException | null)?.code !== 'ENOENT') throw failure;
    this.ready = undefined;
    await this.folderReady();
    await write();
  }

  /** A file whose owner cannot be recorded is not kept: it would escape the owner's quota. */
  private async ownedOrRemoved(owned: Promise<unknown>, target: string): Promise<void> {
    try {
      await owned;
    } catch (error) {
      await unlink(target).catch(() => undefined);
      throw storageFailure(error);
    }
  }

  async locate(fileName: string): Promise<LocatedFile | undefined> {
    const { extension, sampleRate } = parseAudioFileName(fileName);
    const path = join(this.directory, fileName);
    if (!path.startsWith(this.directory + sep)) throw audioNotFound();
    // Only "no such file" is gone; any other failure (EIO, EACCES) says nothing about the file.
    const stats = await stat(path).catch((error: NodeJS.ErrnoException) => (GONE.has(error.code ?? '') ? undefined : Promise.reject(storageReadFailure(error))));
    if (!stats?.isFile()) return undefined;
    const expiresAt = stats.mtimeMs + this.retentionMs;
    if (expiresAt <= this.now()) return undefined;
    return { path, size: stats.size, mtime: storedAt(stats), extension, sampleRate, expiresAt: new Date(expiresAt), open: (range, options) => openFile(path, range, options) };
  }

  async sweep(): Promise<number> {
    await this.ledger.sweep(this.now());
    const entries = await readdir(this.directory, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return [];
      throw error;
    });
    const cutoff = this.now() - this.retentionMs;
    let removed = 0;
    // A file that cannot be deleted (immutable, another user's, a bad block) must not keep the
    // sweep from the files after it, or they would never go: the sweep goes on and reports it.
    let failed = 0;
    let firstFailure: unknown;
    for (const entry of entries) {
      const ours = AUDIO_FILE_NAME_PATTERN.test(entry.name) || entry.name.startsWith(TEMPORARY_PREFIX);
      if (!entry.isFile() || !ours) continue;
      const path = join(this.directory, entry.name);
      const stats = await stat(path).catch(() => undefined);
      if (!stats || stats.mtimeMs > cutoff) continue;
      // Another replica may sweep the same shared folder: a vanished file is fine.
      const deleted = await unlink(path).then(
        () => true,
        (error: NodeJS.ErrnoException) => {
          if (error.code !== 'ENOENT') {
            failed += 1;
            firstFailure ??= withoutPath(error);
          }
          return false;
        },
      );
      if (deleted) removed += 1;
    }
    if (failed > 0) throw sweepIncomplete(firstFailure, failed, removed);
    return removed;
  }

  async checkWritable(): Promise<void> {
    // Not the cached `ready`: a folder fixed after a failure must be seen as fixed.
    await mkdir(this.directory, { recursive: true });
    // A temporary name: if the process dies between the two calls, the sweeper removes it.
    const probe = join(this.directory, `${TEMPORARY_PREFIX}probe-${randomBytes(6).toString('hex')}`);
    const handle = await open(probe, 'wx', 0o600);
    try {
      await handle.writeFile('ok');
    } finally {
      await handle.close();
      await unlink(probe).catch(() => undefined);
    }
  }

  startSweeper(intervalMs: number): () => void {
    return startSweeper(() => this.sweep(), intervalMs, this.options.onSweepError);
  }
}

/** A sweep that could not delete every expired file: the first failure (without its path), and how it went. */
function sweepIncomplete(firstFailure: unknown, failed: number, removed: number): Error {
  const message = firstFailure instanceof Error ? firstFailure.message : String(firstFailure);
  return new Error(`${message} for ${failed} expired file${failed === 1 ? '' : 's'}; ${removed} deleted`, { cause: firstFailure });
}

/**
 * Makes a folder and its parents. Node's recursive mkdir reports ENOENT when a level cannot be
 * made (a full disk): the levels are then made one by one, to fail with the real cause.
 */
async function makeFolder(path: string): Promise<void> {
  try {
    await mkdir(path, { recursive: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    await makeLevels(path);
  }
}

async function makeLevels(path: string): Promise<void> {
  const parent = dirname(path);
  if (parent !== path && !(await stat(parent).then((stats) => stats.isDirectory(), () => false))) await makeLevels(parent);
  await mkdir(path).catch((error: NodeJS.ErrnoException) => (error.code === 'EEXIST' ? undefined : Promise.reject(error)));
}

/**
 * When the bytes were stored: the file's birth time where its file system keeps one (ext4, XFS,
 * btrfs), else its modification time. Not the modification time alone: a result-cache hit renews
 * it to extend the file's life (see share), which changes no byte, and Last-Modified must not move.
 */
function storedAt(stats: Stats): Date {
  return stats.birthtimeMs > 0 ? stats.birthtime : stats.mtime;
}

/** Opens first, so that a file swept since locate() is a 404 and not a stream error. */
async function openFile(path: string, range: ByteRange | undefined, options: ReadOptions = {}): Promise<Readable> {
  const handle = await open(path, 'r').catch((error: NodeJS.ErrnoException) => Promise.reject(error.code === 'ENOENT' ? audioNotFound() : storageReadFailure(error)));
  return handle.createReadStream({ autoClose: true, ...(range && { start: range.start, end: range.end }), ...(options.signal && { signal: options.signal }) });
}
