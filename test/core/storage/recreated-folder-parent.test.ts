import { expect } from 'chai';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/** Whether strace can trace a child here (a container may forbid ptrace). */
function straceWorks(): boolean {
  try {
    execFileSync('strace', ['-f', '-o', '/dev/null', 'true'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * The folder a store writes in is a name in its parent: a new folder is durable once its parent
 * is flushed (the store does so when it first makes it). A folder deleted and made again (by
 * hand, or by the readiness check) is new as well; a save acknowledged in it must not be lost
 * with the folder's own name after a crash. Watched from outside, with strace, on the real
 * save thread.
 */
describe('core/storage FileSystemAudioStore: a folder made again has its name flushed in its parent', () => {
  let root: string;
  before(function () {
    if (process.platform !== 'linux' || !straceWorks()) this.skip();
  });
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'recreated-parent-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('flushes the parent before acknowledging the first save in the folder made again', () => {
    const directory = join(root, 'audio');
    const core = resolve(__dirname, '../../../core');
    const script = `
      const { writeSync, rmSync } = require('node:fs');
      const { FileSystemAudioStore } = require(${JSON.stringify(core)});
      (async () => {
        const store = new FileSystemAudioStore(${JSON.stringify(directory)}, 3600000);
        await store.save(Buffer.from('first'), 'mp3');
        rmSync(${JSON.stringify(directory)}, { recursive: true });
        await store.checkWritable(); // the readiness check makes the folder again
        writeSync(2, 'RECREATED\\n');
        await store.save(Buffer.from('second'), 'mp3');
        writeSync(2, 'ACKNOWLEDGED\\n');
        process.exit(0);
      })();`;
    const trace = join(root, 'trace');
    const run = spawnSync('strace', ['-f', '-e', 'trace=openat,fsync,write', '-o', trace, process.execPath, '-e', script], { encoding: 'utf8' });
    expect(run.status, run.stderr).to.equal(0);
    const lines = readFileSync(trace, 'utf8').split('\n');
    const from = lines.findIndex((line) => line.includes('"RECREATED\\n"'));
    const to = lines.findIndex((line) => line.includes('"ACKNOWLEDGED\\n"'));
    expect(from).to.be.greaterThan(-1);
    const between = lines.slice(from, to);
    // Descriptors opened on the parent folder after it was made again, then those fsynced.
    const parentDescriptors = between.flatMap((line) => {
      const match = new RegExp(`openat\\(AT_FDCWD, "${root}", O_RDONLY[^)]*\\) = (\\d+)`).exec(line);
      return match ? [match[1]] : [];
    });
    const flushed = parentDescriptors.some((descriptor) => between.some((line) => line.includes(`fsync(${descriptor})`)));
    expect(flushed, 'no fsync of the parent between the recreation and the acknowledgement').to.equal(true);
  });
});
