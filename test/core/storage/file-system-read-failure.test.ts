import { expect } from 'chai';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileSystemAudioStore, type GatewayError } from '../../../core';

const HOUR = 3_600_000;

/**
 * A stored file the folder store cannot look at now is not a file that is gone: the result
 * cache drops its entry only for the second (as the S3 store answers only a 404 as gone). A
 * failing disk's EIO cannot be made on demand, and the tests run as root (permissions do not
 * stop root): a name that is a symbolic link to itself (ELOOP) stands in for it.
 */
describe('core/storage FileSystemAudioStore: a file it cannot look at is a failure, not a missing file', () => {
  let root: string;
  let directory: string;
  let store: FileSystemAudioStore;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'audio-read-failure-'));
    directory = join(root, 'audio');
    store = new FileSystemAudioStore(directory, HOUR);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  /** Replaces a stored file by a link to itself, and answers how to put its bytes back. */
  function breakFile(fileName: string): () => void {
    const path = join(directory, fileName);
    const bytes = readFileSync(path);
    unlinkSync(path);
    symlinkSync(fileName, path);
    return () => {
      unlinkSync(path);
      writeFileSync(path, bytes);
    };
  }

  it('locate rejects with 503 TTS_ERR_UNAVAILABLE, the path left out; once the file can be looked at it is found again', async () => {
    const saved = await store.save(Buffer.from('stored audio'), 'mp3');
    const repair = breakFile(saved.fileName);
    const failure = await store.locate(saved.fileName).then(
      (located) => located,
      (error: GatewayError) => error,
    );
    expect(failure).to.include({ code: 'TTS_ERR_UNAVAILABLE', status: 503 });
    expect((failure as GatewayError).message).to.not.include(saved.fileName).and.not.include(root);
    repair();
    expect((await store.locate(saved.fileName))?.size).to.equal('stored audio'.length);
  });

  it('share rejects the same way (the cache keeps its entry), and answers none for a file that is gone (the cache drops it)', async () => {
    const saved = await store.save(Buffer.from('stored audio'), 'mp3');
    const repair = breakFile(saved.fileName);
    expect(await store.share(saved.fileName).then(() => 'shared or none', (error: GatewayError) => error.code)).to.equal('TTS_ERR_UNAVAILABLE');
    repair();
    expect(await store.share(saved.fileName)).to.not.equal(undefined);
    unlinkSync(join(directory, saved.fileName));
    expect(await store.share(saved.fileName)).to.equal(undefined);
  });
});
