import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileSystemAudioStore } from '../../../core';

const HOUR = 3_600_000;

/** Makes a file undeletable (immutable), where this user may: root on a file system with attributes (ext4, XFS). */
function makeImmutable(path: string): boolean {
  try {
    execFileSync('chattr', ['+i', path], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * One expired file the sweep cannot delete (made immutable, owned by another user, a bad block)
 * must not keep it from deleting the others: stopping at it, every sweep left the files after
 * it in the folder's order, and the disk filled up.
 */
describe('core/storage FileSystemAudioStore sweep past a file it cannot delete', () => {
  let directory: string;
  let locked: string | undefined;

  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'sweep-undeletable-'));
  });
  afterEach(() => {
    if (locked) execFileSync('chattr', ['-i', locked], { stdio: 'ignore' });
    locked = undefined;
    rmSync(directory, { recursive: true, force: true });
  });

  it('deletes every other expired file and reports the failure at its end', async function () {
    const names = Array.from({ length: 20 }, (_, index) => `${String(index).padStart(2, '0').repeat(16)}.mp3`);
    const old = new Date(Date.now() - 2 * HOUR);
    for (const name of names) {
      writeFileSync(join(directory, name), 'old');
      utimesSync(join(directory, name), old, old);
    }
    // The folder's first entry as readdir lists it, so that a sweep that stops there deletes nothing else.
    const first = readdirSync(directory)[0];
    if (!makeImmutable(join(directory, first))) this.skip();
    locked = join(directory, first);
    const store = new FileSystemAudioStore(directory, HOUR);
    const outcome = await store.sweep().then(
      (removed) => `removed ${removed}`,
      (error: Error) => error.message,
    );
    expect(readdirSync(directory)).to.deep.equal([first]);
    expect(outcome).to.equal("the audio store's unlink failed (EPERM) for 1 expired file; 19 deleted");
    expect(outcome).to.not.include(first);
  });
});
