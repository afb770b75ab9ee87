import { expect } from 'chai';
import { DirectorySync } from '../../../core/storage/directory-sync';

/** A directory flush that finishes only when the test says so. */
function controlledSync() {
  const started: { finish(): void; fail(error: Error): void }[] = [];
  const sync = () =>
    new Promise<void>((resolve, reject) => {
      started.push({ finish: resolve, fail: reject });
    });
  return { started, sync };
}

const settled = async (promise: Promise<unknown>): Promise<boolean> => {
  let done = false;
  void promise.then(
    () => (done = true),
    () => (done = true),
  );
  await new Promise((resolve) => setImmediate(resolve));
  return done;
};

describe('core/storage DirectorySync', () => {
  it('serves every caller with a flush that began after it asked, and shares one among those who asked meanwhile', async () => {
    const { started, sync } = controlledSync();
    const folder = new DirectorySync('/audio', sync);
    const first = folder.sync();
    const second = folder.sync();
    const third = folder.sync();
    expect(started).to.have.length(1);
    started[0].finish();
    expect(await settled(first)).to.equal(true);
    // The second and third asked while the first flush ran: it may have missed their renames.
    expect(await settled(second)).to.equal(false);
    expect(started).to.have.length(2);
    started[1].finish();
    await Promise.all([second, third]);
    expect(started).to.have.length(2);
  });

  it('fails only the callers of a failed flush; the next one starts afresh', async () => {
    const { started, sync } = controlledSync();
    const folder = new DirectorySync('/audio', sync);
    const failing = folder.sync();
    started[0].fail(new Error('EIO'));
    let error: unknown;
    await failing.catch((caught: unknown) => (error = caught));
    expect(error).to.be.instanceOf(Error);
    const next = folder.sync();
    expect(started).to.have.length(2);
    started[1].finish();
    await next;
  });
});
