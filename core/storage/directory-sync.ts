import { close, fsync, open } from 'node:fs';
import { promisify } from 'node:util';

const openFile = promisify(open);
const fsyncFile = promisify(fsync);

/** Flushes a directory's entries (new names, renames) to disk. */
export type SyncDirectory = (path: string) => Promise<void>;

/** Closes a kept directory descriptor once its owner is garbage collected. */
const descriptors = new FinalizationRegistry<number>((descriptor) => close(descriptor, () => undefined));

/**
 * fsync of a directory through one descriptor kept open (opened at the first sync): one system
 * call per sync instead of three. Windows cannot open a directory for flushing; its file
 * systems journal renames themselves, so there it does nothing.
 */
export function keptDirectorySync(): SyncDirectory {
  const owner = {};
  let descriptor: Promise<number> | undefined;
  return async (path) => {
    if (process.platform === 'win32') return;
    descriptor ??= openFile(path, 'r').then(
      (opened) => {
        descriptors.register(owner, opened);
        return opened;
      },
      (error: unknown) => {
        descriptor = undefined;
        throw error;
      },
    );
    // `owner` lives as long as this function does: the descriptor is closed only after both go.
    await fsyncFile(await descriptor);
  };
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
