import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { closeSync, constants, existsSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SaveThread } from '../../../core/storage/save-thread/save-thread';
import { eventually } from '../../support/eventually';

/** Settles with 'timed out' when `promise` has not settled within `ms`. */
function within(promise: Promise<unknown>, ms: number): Promise<unknown> {
  return Promise.race([promise.then(() => 'resolved', (error: unknown) => error), new Promise((resolve) => setTimeout(() => resolve('timed out'), ms))]);
}

/**
 * A save's signal is the request's deadline (synthesis.timeout): a disk that stalls (a hung
 * network mount, a slow fdatasync) must not hold the request past it.
 */
describe('core/storage SaveThread: a save whose signal aborts while the thread is busy', () => {
  let folder: string;
  let thread: SaveThread;
  let fifo: string;
  beforeEach(function () {
    if (process.platform !== 'linux') this.skip();
    folder = mkdtempSync(join(tmpdir(), 'save-thread-deadline-'));
    fifo = join(folder, 'stalled');
    execFileSync('mkfifo', [fifo]);
    thread = new SaveThread();
  });
  afterEach(async () => {
    await thread?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  /**
   * The thread's next open of the fifo (as a folder to flush) blocks until a writer comes: a
   * stalled disk. A writer's open succeeds once the thread waits there (a thread slow to start
   * may not yet), so it is tried until it does.
   */
  async function releaseStall(): Promise<void> {
    await eventually(() => closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK)), 500);
  }

  it('rejects with the signal reason at once, and the file the thread writes later is removed', async () => {
    const stalled = thread.flushFolder(fifo).catch(() => undefined);
    // Let the thread take the stalling order in and block on it.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const controller = new AbortController();
    const path = join(folder, 'late');
    const saving = thread.write(path, Buffer.from('audio'), 0o600, controller.signal);
    controller.abort(new Error('deadline'));
    let outcome: unknown;
    try {
      outcome = await within(saving, 1_000);
    } finally {
      await releaseStall();
    }
    expect(outcome).to.have.property('message', 'deadline');
    await stalled;
    await saving.catch(() => undefined);
    // The thread takes its orders in turn: once a later save is done, so is the late one, however slow the disk.
    await thread.write(join(folder, 'after'), Buffer.from('audio'), 0o600);
    // The thread wrote it once the disk came back: no one was given its name, so it must go.
    await eventually(() => void expect(existsSync(path)).to.equal(false), 500);
  });
});
