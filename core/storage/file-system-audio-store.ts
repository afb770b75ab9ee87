import { randomBytes } from 'node:crypto';
import { mkdir, open, readdir, rename, stat, unlink } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import { GatewayError } from '../errors';
import type { AudioStore, LocatedAudio, SaveAudioOptions, SavedAudio } from './audio-store';

/** 24 random bytes = 192 bits, 32 base64url characters. */
const NAME_BYTES = 24;
/**
 * `<32 base64url chars>.<ext>`; raw PCM carries its sample rate in the name
 * (`<random>.<rate>.pcm`) so that one atomic file holds everything needed to serve it.
 */
const FILE_NAME_PATTERN = /^([A-Za-z0-9_-]{32})(?:\.([1-9][0-9]{3,5}))?\.([a-z0-9]{1,10})$/;
const EXTENSION_PATTERN = /^[a-z0-9]{1,10}$/;
const TEMPORARY_PREFIX = '.tmp-';

export interface FileSystemAudioStoreOptions {
  /** Clock, replaceable in tests. */
  readonly now?: () => number;
  /** Told about a failed background sweep (the sweeper never throws). */
  readonly onSweepError?: (error: unknown) => void;
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
    if (!EXTENSION_PATTERN.test(extension)) throw new GatewayError('TTS_ERR_INTERNAL', `Unusable audio file extension "${extension}"`);
    const rate = options.sampleRate;
    const rateIsValid = rate !== undefined && Number.isInteger(rate) && rate >= 1000 && rate <= 999_999;
    if (extension === 'pcm' && !rateIsValid) throw new GatewayError('TTS_ERR_INTERNAL', 'Raw PCM audio needs a sample rate to be stored');
    const random = randomBytes(NAME_BYTES).toString('base64url');
    const fileName = extension === 'pcm' ? `${random}.${rate}.pcm` : `${random}.${extension}`;
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

  async locate(fileName: string): Promise<LocatedAudio | undefined> {
    const match = FILE_NAME_PATTERN.exec(fileName);
    const extension = match?.[3];
    const sampleRate = match?.[2] === undefined ? undefined : Number(match[2]);
    if (!match || (extension === 'pcm') !== (sampleRate !== undefined)) throw notFound();
    const path = join(this.directory, fileName);
    if (!path.startsWith(this.directory + sep)) throw notFound();
    const stats = await stat(path).catch(() => undefined);
    if (!stats?.isFile()) return undefined;
    const expiresAt = stats.mtimeMs + this.retentionMs;
    if (expiresAt <= this.now()) return undefined;
    return { path, size: stats.size, mtime: stats.mtime, extension: extension as string, sampleRate, expiresAt: new Date(expiresAt) };
  }

  async sweep(): Promise<number> {
    const entries = await readdir(this.directory, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return [];
      throw error;
    });
    const cutoff = this.now() - this.retentionMs;
    let removed = 0;
    for (const entry of entries) {
      const ours = FILE_NAME_PATTERN.test(entry.name) || entry.name.startsWith(TEMPORARY_PREFIX);
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

  startSweeper(intervalMs: number): () => void {
    const timer = setInterval(() => {
      this.sweep().catch((error: unknown) => this.options.onSweepError?.(error));
    }, intervalMs);
    timer.unref();
    return () => clearInterval(timer);
  }
}

function notFound(): GatewayError {
  return new GatewayError('TTS_ERR_NOT_FOUND', 'No such audio file', { details: [{ field: 'file', reason: 'not found' }] });
}
