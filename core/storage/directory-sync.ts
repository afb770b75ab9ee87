import { close, fsync, open } from 'node:fs';
import { promisify } from 'node:util';

const openFile = promisify(open);
const fsyncFile = promisify(fsync);

/** Flushes a directory's entries (new names, renames) to disk. */
export type SyncDirectory = (path: string) => Promise<void>;

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
    private readonly syncDirectory: SyncDirectory,
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
