import { expect } from 'chai';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileSystemAudioStore } from '../../../core';

const HOUR = 3_600_000;

describe('core/storage FileSystemAudioStore durable save', () => {
  let root: string;
  let directory: string;

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'durable-save-'));
    directory = join(root, 'audio');
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('flushes the folder with the file already under its name, and acknowledges the save only after that flush', async () => {
    const seen: { folder: string; files: string[] }[] = [];
    let releaseFlush: () => void = () => undefined;
    const flushHeld = new Promise<void>((resolve) => (releaseFlush = resolve));
    const store = new FileSystemAudioStore(directory, HOUR, {
      syncDirectory: async (folder) => {
        seen.push({ folder, files: existsSync(folder) ? readdirSync(folder) : [] });
        if (folder === directory) await flushHeld;
      },
    });
    let acknowledged = false;
    const saving = store.save(Buffer.from('whole audio'), 'mp3').then((saved) => {
      acknowledged = true;
      return saved;
    });
    while (!seen.some((entry) => entry.folder === directory)) await new Promise((resolve) => setImmediate(resolve));
    // The data's own write has all the time it needs meanwhile: only the folder flush is held.
    for (let turn = 0; turn < 50; turn += 1) await new Promise((resolve) => setImmediate(resolve));
    expect(acknowledged).to.equal(false);
    releaseFlush();
    const saved = await saving;
    expect(acknowledged).to.equal(true);
    const flushOfAudioFolder = seen.filter((entry) => entry.folder === directory);
    expect(flushOfAudioFolder).to.have.length(1);
    expect(flushOfAudioFolder[0].files).to.deep.equal([saved.fileName]);
    expect(readFileSync(join(directory, saved.fileName), 'utf8')).to.equal('whole audio');
    // The folder itself was new: its parent is flushed once, so the folder's name survives too.
    expect(seen.filter((entry) => entry.folder === root)).to.have.length(1);
    await store.save(Buffer.from('second'), 'mp3');
    expect(seen.filter((entry) => entry.folder === root)).to.have.length(1);
  });

  it('does not acknowledge a file whose folder flush failed, and leaves nothing behind', async () => {
    const store = new FileSystemAudioStore(directory, HOUR, {
      syncDirectory: async (folder) => {
        if (folder === directory) throw Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO' });
      },
    });
    let error: unknown;
    await store.save(Buffer.from('lost'), 'mp3').catch((caught: unknown) => (error = caught));
    expect(error).to.be.instanceOf(Error);
    expect(readdirSync(directory)).to.deep.equal([]);
  });

  it('saves with the real folder flush', async () => {
    const store = new FileSystemAudioStore(directory, HOUR);
    const saves = await Promise.all(Array.from({ length: 8 }, (_, index) => store.save(Buffer.alloc(2_000, index), 'wav')));
    expect(readdirSync(directory).sort()).to.deep.equal(saves.map((saved) => saved.fileName).sort());
  });

  it('flushes a folder deleted and made again under the same path as the new folder it is, letting the old one go', async function () {
    if (process.platform !== 'linux') this.skip();
    /** What this process holds open of `path`, as /proc names it ("<path> (deleted)" once removed). */
    const openAs = (path: string): string[] =>
      readdirSync('/proc/self/fd')
        .map((descriptor) => {
          try {
            return readlinkSync(join('/proc/self/fd', descriptor));
          } catch {
            return '';
          }
        })
        .filter((target) => target === path || target === `${path} (deleted)`);
    const store = new FileSystemAudioStore(directory, HOUR);
    // The folder's kept descriptor opened, by a save and a share's folder flush.
    await store.share((await store.save(Buffer.from('first'), 'mp3')).fileName);
    expect(openAs(directory).length).to.be.greaterThan(0);
    rmSync(directory, { recursive: true });
    mkdirSync(directory);
    const saved = await store.save(Buffer.from('second'), 'mp3');
    const shared = await store.share(saved.fileName);
    expect(readdirSync(directory).sort()).to.deep.equal([saved.fileName, shared!.fileName].sort());
    // Nothing of the deleted folder is held: its flushes would not have reached the new names.
    expect(openAs(directory).filter((target) => target.endsWith(' (deleted)'))).to.deep.equal([]);
    expect(openAs(directory).length).to.be.greaterThan(0);
  });
});

