import { expect } from 'chai';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
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

  it('flushes the folder with the whole file already under its name, before the save is acknowledged', async () => {
    const seen: { folder: string; files: string[]; contents: string[] }[] = [];
    const store = new FileSystemAudioStore(directory, HOUR, {
      syncDirectory: async (folder) => {
        const files = existsSync(folder) ? readdirSync(folder) : [];
        const contents = folder === directory ? files.map((file) => readFileSync(join(folder, file), 'utf8')) : [];
        seen.push({ folder, files, contents });
      },
    });
    let acknowledged = false;
    const saving = store.save(Buffer.from('whole audio'), 'mp3').then((saved) => {
      acknowledged = true;
      return saved;
    });
    const saved = await saving;
    expect(acknowledged).to.equal(true);
    const flushOfAudioFolder = seen.filter((entry) => entry.folder === directory);
    expect(flushOfAudioFolder).to.have.length(1);
    expect(flushOfAudioFolder[0].files).to.deep.equal([saved.fileName]);
    expect(flushOfAudioFolder[0].contents).to.deep.equal(['whole audio']);
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
});
