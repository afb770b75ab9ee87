import { close, fstat, fsync, open, stat, type Stats } from 'node:fs';
import { promisify } from 'node:util';

const openFile = promisify(open);
const fsyncFile = promisify(fsync);
const statPath = promisify(stat);
const statDescriptor = promisify(fstat);

/** Flushes a directory's entries (new names, renames) to disk. */
export type SyncDirectory = (path: string) => Promise<void>;

/** Closes a kept directory descriptor once its owner is garbage collected. */
const descriptors = new FinalizationRegistry<number>((descriptor) => close(descriptor, () => undefined));

/** A directory descriptor kept open, and which directory it is. */
interface KeptDirectory {
  readonly descriptor: number;
  readonly stats: Stats;
}

/**
 * fsync of a directory through one descriptor kept open (opened at the first sync): one system
 * call per sync instead of three. The path is looked up beside each sync (in parallel): a
 * directory deleted or moved away and made again under the same path is another one, whose new
 * names the old descriptor would never flush; it is then opened afresh and flushed. Windows
 * cannot open a directory for flushing; its file systems journal renames themselves, so there it
 * does nothing.
 */
export function keptDirectorySync(): SyncDirectory {
  const owner = {};
  let kept: Promise<KeptDirectory> | undefined;
  const keep = (path: string): Promise<KeptDirectory> =>
    (kept ??= openFile(path, 'r').then(
      async (descriptor) => {
        descriptors.register(owner, descriptor, owner);
        return { descriptor, stats: await statDescriptor(descriptor) };
      },
      (error: unknown) => {
        kept = undefined;
        throw error;
      },
    ));
  const sync = async (path: string, again: boolean): Promise<void> => {
    if (process.platform === 'win32') return;
    const directory = await keep(path);
    const [current] = await Promise.all([statPath(path), fsyncFile(directory.descriptor)]);
    if (current.ino === directory.stats.ino && current.dev === directory.stats.dev) return;
    // Replaced: let the old one go, and flush the directory the path names now (once: a path
    // replaced again meanwhile is left to the next sync).
    if (kept) {
      kept = undefined;
      descriptors.unregister(owner);
      close(directory.descriptor, () => undefined);
    }
    if (again) await sync(path, false);
  };
  // `owner` lives as long as this function does: the descriptor is closed only after both go.
  return (path) => sync(path, true);
}

/** Flushes any directory, opening and closing it each time (for rare syncs, such as a parent). */
export const fsyncDirectory: SyncDirectory = async (path) => {
  if (process.platform === 'win32') return;
  const descriptor = await openFile(path, 'r');
  try {
    await fsyncFile(descriptor);
  } finally {
    await promisify(close)(descriptor);
  }
};

/**
 * fsync of one directory, shared by everyone who needs it (group commit): a caller is served by
 * the first sync that starts after it asked, so concurrent saves pay for one sync between them
 * instead of one each, and no caller is told "durable" by a sync that began before its rename.
 */
export class DirectorySync {
  private running: Promise<void> | undefined;
  private next: Promise<void> | undefined;

  constructor(
    private readonly path: string,
    private readonly syncDirectory: SyncDirectory = keptDirectorySync(),
  ) {}

  sync(): Promise<void> {
    if (!this.running) return this.start();
    this.next ??= this.running
      .catch(() => undefined)
      .then(() => {
        this.next = undefined;
        return this.start();
      });
    return this.next;
  }

  private start(): Promise<void> {
    const run: Promise<void> = this.syncDirectory(this.path).finally(() => {
      if (this.running === run) this.running = undefined;
    });
    this.running = run;
    return run;
  }
}
