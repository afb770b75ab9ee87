import { randomBytes } from 'node:crypto';
import { mkdir, open, readdir, stat, unlink } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { audioNotFound, AUDIO_FILE_NAME_PATTERN, newAudioFileName, parseAudioFileName } from './audio-file-name';
import type { AudioStore, ByteRange, LocatedAudio, SaveAudioOptions, SavedAudio } from './audio-store';
import { DirectorySync, fsyncDirectory, keptDirectorySync, type SyncDirectory } from './directory-sync';
import { startSweeper } from './sweeper';

/** Write probes (and files of earlier versions, which were renamed into place) carry it; leftovers are swept. */
const TEMPORARY_PREFIX = '.tmp-';

export interface FileSystemAudioStoreOptions {
  /** Clock, replaceable in tests. */
  readonly now?: () => number;
  /** Told about a failed background sweep (the sweeper never throws). */
  readonly onSweepError?: (error: unknown) => void;
  /** Flushes the folder's entries; replaceable in tests. */
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
  private readonly directorySync: DirectorySync;
  private readonly syncDirectory: SyncDirectory;

  constructor(
    directory: string,
    private readonly retentionMs: number,
    private readonly options: FileSystemAudioStoreOptions = {},
  ) {
    this.directory = resolve(directory);
    this.now = options.now ?? Date.now;
    this.syncDirectory = options.syncDirectory ?? fsyncDirectory;
    this.directorySync = new DirectorySync(this.directory, options.syncDirectory ?? keptDirectorySync());
  }

  async save(bytes: Uint8Array, extension: string, options: SaveAudioOptions = {}): Promise<SavedAudio> {
    const { fileName } = newAudioFileName(extension, options.sampleRate);
    // The folder's own name should survive a crash as well: its parent is flushed once, where
    // that is allowed (a parent the gateway may not read stays as it is).
    this.ready ??= mkdir(this.directory, { recursive: true }).then(() => this.syncDirectory(dirname(this.directory)).catch(() => undefined));
    await this.ready;
    // Written straight under its final name: the name is unguessable and reaches no one before
    // save() resolves, so no reader can see the file incomplete, and a rename would only add a
    // system call and a wait. Then one flush of the file's data and one of the folder (so the
    // new name survives a crash too), together; the folder's is shared with concurrent saves.
    const target = join(this.directory, fileName);
    const handle = await open(target, 'wx', 0o600);
    try {
      await handle.writeFile(bytes);
      await Promise.all([handle.datasync(), this.directorySync.sync()]);
    } catch (error) {
      void handle.close().catch(() => undefined);
      await unlink(target).catch(() => undefined);
      throw error;
    }
    // Durable already: closing is not waited for (a failing close cannot undo the flush).
    void handle.close().catch(() => undefined);
    return { fileName, size: bytes.byteLength };
  }

  async locate(fileName: string): Promise<LocatedFile | undefined> {
    const { extension, sampleRate } = parseAudioFileName(fileName);
    const path = join(this.directory, fileName);
    if (!path.startsWith(this.directory + sep)) throw audioNotFound();
    const stats = await stat(path).catch(() => undefined);
    if (!stats?.isFile()) return undefined;
    const expiresAt = stats.mtimeMs + this.retentionMs;
    if (expiresAt <= this.now()) return undefined;
    return { path, size: stats.size, mtime: stats.mtime, extension, sampleRate, expiresAt: new Date(expiresAt), open: (range) => openFile(path, range) };
  }

  async sweep(): Promise<number> {
    const entries = await readdir(this.directory, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return [];
      throw error;
    });
    const cutoff = this.now() - this.retentionMs;
    let removed = 0;
    for (const entry of entries) {
      const ours = AUDIO_FILE_NAME_PATTERN.test(entry.name) || entry.name.startsWith(TEMPORARY_PREFIX);
      if (!entry.isFile() || !ours) continue;
      const path = join(this.directory, entry.name);
      const stats = await stat(path).catch(() => undefined);
      if (!stats || stats.mtimeMs > cutoff) continue;
      // Another replica may sweep the same shared folder: a vanished file is fine.
      const deleted = await unlink(path).then(
        () => true,
        (error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? false : Promise.reject(error)),
      );
      if (deleted) removed += 1;
    }
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

/** Opens first, so that a file swept since locate() is a 404 and not a stream error. */
async function openFile(path: string, range: ByteRange | undefined): Promise<Readable> {
  const handle = await open(path, 'r').catch((error: NodeJS.ErrnoException) => Promise.reject(error.code === 'ENOENT' ? audioNotFound() : error));
  return handle.createReadStream({ autoClose: true, ...(range && { start: range.start, end: range.end }) });
}
