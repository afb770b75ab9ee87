import { createHash, randomBytes } from 'node:crypto';
import { mkdir, open, readdir, rmdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';

/** The ledger's folder inside the store's: a name no audio file can have. */
export const LEDGER_FOLDER = '.owners';
/** `<created ms>-<size>-<random>`: everything the ledger needs is in the name, so it never reads a file. */
const ENTRY_PATTERN = /^(\d{1,15})-(\d{1,15})-[A-Za-z0-9_-]{16}$/;

/** What one owner has stored. */
export interface StoredBytes {
  /** Bytes of the owner's files that have not expired. */
  readonly bytes: number;
  /** When the oldest of them expires (Unix milliseconds); absent when there is none. */
  readonly oldestExpiresAt?: number;
}

/**
 * Who stored what in a folder store: one empty file per stored audio file, in a folder per
 * owner, its name holding when and how much. It lives with the audio (a shared folder serves
 * every replica alike), expires with it and is swept with it. Owners are folder names made from
 * a hash, so an account id never appears on disk.
 */
export class OwnerLedger {
  private readonly folder: string;

  constructor(
    storeFolder: string,
    private readonly retentionMs: number,
  ) {
    this.folder = join(storeFolder, LEDGER_FOLDER);
  }

  /** Records `size` bytes stored for `owner` at `createdAt`; returns a function that takes it back. */
  async record(owner: string, size: number, createdAt: number): Promise<() => Promise<void>> {
    const folder = this.ownerFolder(owner);
    const entry = join(folder, `${createdAt}-${size}-${randomBytes(12).toString('base64url')}`);
    // The folder usually exists: it is made only when the entry cannot be, and at most twice,
    // since a sweep may remove the owner's empty folder between the two steps.
    for (let made = 0; ; made += 1) {
      try {
        const handle = await open(entry, 'wx', 0o600);
        void handle.close().catch(() => undefined);
        return () => unlink(entry).catch(() => undefined);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || made === 2) throw error;
      }
      await mkdir(folder, { recursive: true });
    }
  }

  async storedBytes(owner: string, now: number): Promise<StoredBytes> {
    const names = await readdir(this.ownerFolder(owner)).catch((error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? [] : Promise.reject(error)));
    let bytes = 0;
    let oldestExpiresAt: number | undefined;
    for (const name of names) {
      const entry = ENTRY_PATTERN.exec(name);
      if (!entry) continue;
      const expiresAt = Number(entry[1]) + this.retentionMs;
      if (expiresAt <= now) continue;
      bytes += Number(entry[2]);
      oldestExpiresAt = Math.min(oldestExpiresAt ?? expiresAt, expiresAt);
    }
    return oldestExpiresAt === undefined ? { bytes } : { bytes, oldestExpiresAt };
  }

  /** Deletes the entries of expired files, and owner folders left empty. */
  async sweep(now: number): Promise<void> {
    const owners = await readdir(this.folder).catch((error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? [] : Promise.reject(error)));
    for (const owner of owners) {
      const folder = join(this.folder, owner);
      const names = await readdir(folder).catch(() => [] as string[]);
      let left = names.length;
      for (const name of names) {
        const entry = ENTRY_PATTERN.exec(name);
        if (!entry || Number(entry[1]) + this.retentionMs > now) continue;
        await unlink(join(folder, name)).catch(() => undefined);
        left -= 1;
      }
      // A save may be creating its entry right now: a folder that is not empty stays.
      if (left === 0) await rmdir(folder).catch(() => undefined);
    }
  }

  private ownerFolder(owner: string): string {
    return join(this.folder, createHash('sha256').update(owner).digest('hex').slice(0, 32));
  }
}
