import { expect } from 'chai';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileSystemAudioStore } from '../../../core';

const HOUR = 3_600_000;

/**
 * The store makes its folder at the first save. A folder removed later under the running gateway
 * (by hand, or by a cleaner of old folders under /tmp) must not fail every save from then on.
 */
describe('core/storage FileSystemAudioStore: its folder removed while it runs', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'folder-removed-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('makes the folder again at the next save, which succeeds', async () => {
    const directory = join(root, 'audio');
    const store = new FileSystemAudioStore(directory, HOUR);
    await store.save(Buffer.from('first'), 'mp3');
    rmSync(directory, { recursive: true });
    const saved = await store.save(Buffer.from('second'), 'mp3');
    expect(readFileSync(join(directory, saved.fileName), 'utf8')).to.equal('second');
    const third = await store.save(Buffer.from('third'), 'mp3');
    expect(readFileSync(join(directory, third.fileName), 'utf8')).to.equal('third');
  });
});
