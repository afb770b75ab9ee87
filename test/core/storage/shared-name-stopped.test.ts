import { expect } from 'chai';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileSystemAudioStore } from '../../../core';

const HOUR = 3_600_000;

/**
 * A result-cache hit is given up when its client leaves or its read deadline passes: the share
 * under way must then leave no name behind and count nothing against the owner's quota, since
 * no one will be given that name.
 */
describe('core/storage FileSystemAudioStore share stopped by its signal', () => {
  let root: string;
  let directory: string;

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'shared-name-stopped-'));
    directory = join(root, 'audio');
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('removes the new name and records no bytes for the owner when stopped during the folder flush', async () => {
    let stalled = false;
    let release: () => void = () => undefined;
    let flushWaits: () => void = () => undefined;
    const flushWaiting = new Promise<void>((resolve) => (flushWaits = resolve));
    const store = new FileSystemAudioStore(directory, HOUR, {
      syncDirectory: (folder) => {
        if (!stalled || folder !== directory) return Promise.resolve();
        flushWaits();
        return new Promise<void>((resolve) => (release = resolve));
      },
    });
    const original = await store.save(Buffer.from('cached audio'), 'mp3', { owner: 'first' });
    stalled = true;
    const stop = new AbortController();
    const sharing = store.share(original.fileName, { owner: 'second', signal: stop.signal });
    await flushWaiting;
    stop.abort(new Error('client left'));
    release();
    const outcome = await sharing.then(
      (shared) => `shared as ${shared?.fileName}`,
      (error: Error) => error.message,
    );
    expect(outcome).to.equal('client left');
    expect(readdirSync(directory).filter((name) => !name.startsWith('.'))).to.deep.equal([original.fileName]);
    expect((await store.storedBytes('second')).bytes).to.equal(0);
  });

  it('makes no name at all for a signal stopped already', async () => {
    const store = new FileSystemAudioStore(directory, HOUR, { syncDirectory: () => Promise.resolve() });
    const original = await store.save(Buffer.from('cached audio'), 'mp3');
    const stop = new AbortController();
    stop.abort(new Error('deadline'));
    const outcome = await store.share(original.fileName, { owner: 'second', signal: stop.signal }).then(
      () => 'shared',
      (error: Error) => error.message,
    );
    expect(outcome).to.equal('deadline');
    expect(readdirSync(directory).filter((name) => !name.startsWith('.'))).to.deep.equal([original.fileName]);
    expect((await store.storedBytes('second')).bytes).to.equal(0);
  });
});
