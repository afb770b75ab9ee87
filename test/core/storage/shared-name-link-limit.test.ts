import { expect } from 'chai';
import { linkSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileSystemAudioStore } from '../../../core';

const HOUR = 3_600_000;
/** Above ext4's 65,000 names per file; file systems without such a limit skip the test. */
const MOST_LINKS_TRIED = 70_000;

/**
 * Every result-cache hit of a file answer is one more hard link to the same file, and each hit
 * renews the file's time, so none of those names expires while the result stays popular. ext4
 * allows 65,000 names per file: one cached phrase asked that often within a retention (under one
 * request a second at the default 24h) must still be answered.
 */
describe('core/storage FileSystemAudioStore share: a file at its file system link limit', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'link-limit-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('does not fail the hit: a miss (the result is made afresh) or a fresh name with the same bytes', async function () {
    const store = new FileSystemAudioStore(join(root, 'audio'), HOUR);
    const popular = await store.save(Buffer.from('please hold'), 'mp3');
    // The names earlier hits gave out (made directly here: 65,000 shares would take minutes).
    const earlier = join(root, 'earlier-hits');
    mkdirSync(earlier);
    let links = 0;
    try {
      for (; links < MOST_LINKS_TRIED; links += 1) linkSync(join(root, 'audio', popular.fileName), join(earlier, String(links)));
    } catch (error) {
      expect((error as NodeJS.ErrnoException).code).to.equal('EMLINK');
    }
    if (links === MOST_LINKS_TRIED) this.skip();
    let failure: unknown;
    const shared = await store.share(popular.fileName).catch((error: unknown) => {
      failure = error;
      return undefined;
    });
    expect(failure, 'share failed: every hit of this result is an error answer').to.equal(undefined);
    if (shared) expect(readFileSync(join(root, 'audio', shared.fileName), 'utf8')).to.equal('please hold');
  });
});
