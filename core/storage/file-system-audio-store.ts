import { randomBytes } from 'node:crypto';
import { mkdir, open, readdir, rename, stat, unlink } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { audioNotFound, AUDIO_FILE_NAME_PATTERN, newAudioFileName, parseAudioFileName } from './audio-file-name';
import type { AudioStore, ByteRange, LocatedAudio, SaveAudioOptions, SavedAudio } from './audio-store';
import { startSweeper } from './sweeper';

const TEMPORARY_PREFIX = '.tmp-';

export interface FileSystemAudioStoreOptions {
  /** Clock, replaceable in tests. */
  readonly now?: () => number;
  /** Told about a failed background sweep (the sweeper never throws). */
  readonly onSweepError?: (error: unknown) => void;
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

  constructor(
    directory: string,
    private readonly retentionMs: number,
    private readonly options: FileSystemAudioStoreOptions = {},
  ) {
    this.directory = resolve(directory);
    this.now = options.now ?? Date.now;
  }

  async save(bytes: Uint8Array, extension: string, options: SaveAudioOptions = {}): Promise<SavedAudio> {
    const { random, fileName } = newAudioFileName(extension, options.sampleRate);
    this.ready ??= mkdir(this.directory, { recursive: true });
    await this.ready;
    // Write beside the target, flush, then rename: a reader sees the whole file or none.
    const temporary = join(this.directory, `${TEMPORARY_PREFIX}${random}`);
    const handle = await open(temporary, 'wx', 0o600);
    try {
      await handle.writeFile(bytes);
      await handle.datasync();
    } finally {
      await handle.close();
    }
    try {
      await rename(temporary, join(this.directory, fileName));
    } catch (error) {
      await unlink(temporary).catch(() => undefined);
      throw error;
    }
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
