import { expect } from 'chai';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileSystemAudioStore } from '../../../core';
import { describeAudioStoreContract, HOUR } from './audio-store-contract';

describeAudioStoreContract('FileSystemAudioStore', async (retentionMs, now) => {
  const root = mkdtempSync(join(tmpdir(), 'audio-contract-'));
  const directory = join(root, 'audio');
  return {
    store: new FileSystemAudioStore(directory, retentionMs, { now }),
    addForeign: async (name) => {
      mkdirSync(directory, { recursive: true });
      writeFileSync(join(directory, name), 'not ours');
      const old = new Date(Date.now() - 10 * retentionMs);
      utimesSync(join(directory, name), old, old);
    },
    hasForeign: async (name) => existsSync(join(directory, name)),
    release: async () => rmSync(root, { recursive: true, force: true }),
  };
});

describe('core/storage FileSystemAudioStore on disk', () => {
  let root: string;
  let directory: string;
  let store: FileSystemAudioStore;

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'audio-store-'));
    directory = join(root, 'audio');
    store = new FileSystemAudioStore(directory, HOUR);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  const ageFile = (fileName: string, ageMs: number): void => {
    const when = new Date(Date.now() - ageMs);
    utimesSync(join(directory, fileName), when, when);
  };

  it('creates the folder and leaves no temporary file', async () => {
    const saves = await Promise.all(Array.from({ length: 5 }, (_, index) => store.save(Buffer.alloc(1000, index), 'wav')));
    expect(readdirSync(directory).sort()).to.deep.equal(saves.map((saved) => saved.fileName).sort());
    expect([...readFileSync(join(directory, saves[0].fileName))]).to.deep.equal([...Buffer.alloc(1000, 0)]);
  });

  it('checks it can write: creates the folder and leaves nothing behind', async () => {
    await store.checkWritable();
    expect(readdirSync(directory)).to.deep.equal([]);
  });

  it('fails the write check when the folder cannot exist, and passes once it is fixed', async () => {
    writeFileSync(directory, 'a file where the folder should be');
    const failure = await store.checkWritable().then(() => undefined, (error: NodeJS.ErrnoException) => error);
    expect(failure?.code).to.be.oneOf(['EEXIST', 'ENOTDIR']);
    rmSync(directory);
    await store.checkWritable();
  });

  it('locates a file with its path inside the folder', async () => {
    const saved = await store.save(new Uint8Array(7), 'opus');
    expect((await store.locate(saved.fileName))?.path).to.equal(join(directory, saved.fileName));
  });

  it('does not reach a file outside the folder by traversal', async () => {
    mkdirSync(join(root, 'outside'));
    writeFileSync(join(root, 'outside', `${'B'.repeat(32)}.mp3`), 'secret');
    const error = await store.locate(`../outside/${'B'.repeat(32)}.mp3`).catch((failure: unknown) => failure);
    expect(error).to.have.property('code', 'TTS_ERR_NOT_FOUND');
  });

  it('follows the file’s mtime for expiry and sweeps stale temporaries too', async () => {
    const fresh = await store.save(new Uint8Array(3), 'mp3');
    const old = await store.save(new Uint8Array(3), 'wav');
    writeFileSync(join(directory, '.tmp-abandoned'), 'partial');
    ageFile(old.fileName, 2 * HOUR);
    ageFile('.tmp-abandoned', 2 * HOUR);
    expect(await store.locate(old.fileName)).to.equal(undefined);
    expect(await store.sweep()).to.equal(2);
    expect(readdirSync(directory)).to.deep.equal([fresh.fileName]);
  });

  it('sweeps nothing (and does not fail) before the folder exists', async () => {
    expect(await store.sweep()).to.equal(0);
  });
});
