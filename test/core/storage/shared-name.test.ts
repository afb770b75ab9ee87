import { expect } from 'chai';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, unlinkSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileSystemAudioStore } from '../../../core';

const HOUR = 3_600_000;

describe('core/storage FileSystemAudioStore share (a result-cache hit: a new name, no copy)', () => {
  let root: string;
  let directory: string;

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'shared-name-'));
    directory = join(root, 'audio');
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('gives a new unguessable name to the same bytes, flushing the folder after the link exists', async () => {
    const flushed: string[][] = [];
    const store = new FileSystemAudioStore(directory, HOUR, {
      syncDirectory: async (folder) => {
        if (folder === directory) flushed.push(readdirSync(folder).sort());
      },
    });
    const original = await store.save(Buffer.from('cached audio'), 'mp3');
    const shared = await store.share(original.fileName);
    expect(shared).to.not.equal(undefined);
    expect(shared!.fileName).to.not.equal(original.fileName);
    expect(shared!.fileName).to.match(/^[A-Za-z0-9_-]{32}\.mp3$/);
    expect(shared!.size).to.equal(12);
    expect(readFileSync(join(directory, shared!.fileName), 'utf8')).to.equal('cached audio');
    // No copy: both names are one file on disk.
    expect(statSync(join(directory, shared!.fileName)).ino).to.equal(statSync(join(directory, original.fileName)).ino);
    expect(flushed.at(-1)).to.deep.equal([original.fileName, shared!.fileName].sort());
  });

  it('keeps the new name when the old one is deleted, and keeps pcm sample rates in the name', async () => {
    const store = new FileSystemAudioStore(directory, HOUR);
    const original = await store.save(Buffer.alloc(4_800), 'pcm', { sampleRate: 24_000 });
    const shared = await store.share(original.fileName);
    expect(shared!.fileName).to.match(/\.24000\.pcm$/);
    unlinkSync(join(directory, original.fileName));
    const located = await store.locate(shared!.fileName);
    expect(located?.size).to.equal(4_800);
  });

  it('gives the new name a full retention from now', async () => {
    let clock = Date.now();
    const store = new FileSystemAudioStore(directory, HOUR, { now: () => clock });
    const original = await store.save(Buffer.from('aging audio'), 'mp3');
    const old = new Date(clock - HOUR / 2);
    utimesSync(join(directory, original.fileName), old, old);
    clock += 1000;
    const shared = await store.share(original.fileName);
    const located = await store.locate(shared!.fileName);
    expect(located!.expiresAt.getTime()).to.be.closeTo(clock + HOUR, 1000);
  });

  it('answers undefined for a file that is gone or expired, and makes no name for it', async () => {
    let clock = Date.now();
    const store = new FileSystemAudioStore(directory, HOUR, { now: () => clock });
    const gone = await store.save(Buffer.from('gone'), 'mp3');
    unlinkSync(join(directory, gone.fileName));
    expect(await store.share(gone.fileName)).to.equal(undefined);
    const expired = await store.save(Buffer.from('expired'), 'mp3');
    clock += 2 * HOUR;
    expect(await store.share(expired.fileName)).to.equal(undefined);
    expect(readdirSync(directory)).to.deep.equal([expired.fileName]);
  });

  it('counts the new name against its owner', async () => {
    const store = new FileSystemAudioStore(directory, HOUR);
    const original = await store.save(Buffer.alloc(1_000), 'mp3', { owner: 'account-a' });
    await store.share(original.fileName, { owner: 'account-b' });
    expect((await store.storedBytes('account-a')).bytes).to.equal(1_000);
    expect((await store.storedBytes('account-b')).bytes).to.equal(1_000);
  });
});
