import { expect } from 'chai';
import { WorkerPool } from '../../../core';
import type { TestTask as Task } from './test-worker';
import { SCRIPT } from './worker-pool-test-helpers';

describe('core/workers WorkerPool recycling (memory that comes back)', function () {
  this.timeout(20_000);
  let pool: WorkerPool<Task, number>;
  afterEach(() => pool.close());

  it("reports each worker's WebAssembly memory and replaces a worker grown past the threshold once idle", async () => {
    pool = new WorkerPool<Task, number>({ script: SCRIPT, size: 1, name: 'test', recycleAboveBytes: 32 * 1024 * 1024 });
    const small = await pool.run({ kind: 'grow-wasm', megabytes: 4 });
    expect(small).to.be.within(4 * 1024 * 1024, 8 * 1024 * 1024);
    expect(pool.stats().workers[0].wasmBytes).to.equal(small);
    const firstThread = await pool.run({ kind: 'thread' });
    expect(pool.stats().recycled).to.equal(0);
    await pool.run({ kind: 'grow-wasm', megabytes: 40 });
    expect(pool.stats().recycled).to.equal(1);
    expect(pool.stats().workers[0].wasmBytes).to.equal(0);
    const secondThread = await pool.run({ kind: 'thread' });
    expect(secondThread).to.not.equal(firstThread);
    // The fresh worker starts from nothing.
    expect(await pool.run({ kind: 'grow-wasm', megabytes: 1 })).to.be.below(4 * 1024 * 1024);
  });

  it('never replaces a worker while it holds pins (open streams), and does once the last is released', async () => {
    pool = new WorkerPool<Task, number>({ script: SCRIPT, size: 1, name: 'test', recycleAboveBytes: 32 * 1024 * 1024 });
    const pin = pool.pin();
    const thread = await pool.run({ kind: 'thread' }, [], undefined, { pin });
    await pool.run({ kind: 'grow-wasm', megabytes: 40 }, [], undefined, { pin });
    expect(pool.stats().recycled).to.equal(0);
    expect(pin.alive).to.equal(true);
    expect(await pool.run({ kind: 'thread' }, [], undefined, { pin })).to.equal(thread);
    pin.release();
    expect(pool.stats().recycled).to.equal(1);
    expect(await pool.run({ kind: 'thread' })).to.not.equal(thread);
  });

  it('keeps a grown worker when no threshold is set', async () => {
    pool = new WorkerPool<Task, number>({ script: SCRIPT, size: 1, name: 'test' });
    const thread = await pool.run({ kind: 'thread' });
    await pool.run({ kind: 'grow-wasm', megabytes: 40 });
    expect(pool.stats().recycled).to.equal(0);
    expect(await pool.run({ kind: 'thread' })).to.equal(thread);
  });
});

describe('core/workers WorkerPool idle stop (memory that comes back after a burst)', function () {
  this.timeout(20_000);
  let pool: WorkerPool<Task, number>;
  afterEach(() => pool.close());

  const waitFor = async (condition: () => boolean): Promise<void> => {
    for (let attempt = 0; attempt < 500 && !condition(); attempt += 1) await new Promise((resolve) => setTimeout(resolve, 10));
  };

  it('stops every worker left without work for idleMs, and starts one again for the next task', async () => {
    pool = new WorkerPool<Task, number>({ script: SCRIPT, size: 2, name: 'test', idleMs: 20 });
    const burst = await Promise.all([pool.run({ kind: 'wait', ms: 100 }), pool.run({ kind: 'wait', ms: 100 })]);
    expect(burst).to.deep.equal([100, 100]);
    await waitFor(() => pool.stats().workers.every((worker) => !worker.running));
    expect(pool.stats().workers.map((worker) => worker.running)).to.deep.equal([false, false]);
    expect(pool.stats().stoppedIdle).to.equal(2);
    expect(await pool.run({ kind: 'double', value: 21 })).to.equal(42);
    // One task needs one worker: the other stays stopped.
    expect(pool.stats().workers.filter((worker) => worker.running)).to.have.length(1);
  });

  it('gives a task to a running idle worker rather than starting a stopped one', async () => {
    pool = new WorkerPool<Task, number>({ script: SCRIPT, size: 2, name: 'test', idleMs: 60_000 });
    const first = await pool.run({ kind: 'thread' });
    const second = await pool.run({ kind: 'thread' });
    expect(second).to.equal(first);
  });

  it('never stops a worker that holds a pin (an open stream), and does once the pin is released', async () => {
    pool = new WorkerPool<Task, number>({ script: SCRIPT, size: 1, name: 'test', idleMs: 20 });
    const pin = pool.pin();
    const thread = await pool.run({ kind: 'thread' }, [], undefined, { pin });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(pool.stats().workers[0].running).to.equal(true);
    expect(pin.alive).to.equal(true);
    expect(await pool.run({ kind: 'thread' }, [], undefined, { pin })).to.equal(thread);
    pin.release();
    await waitFor(() => !pool.stats().workers[0].running);
    expect(pool.stats().workers[0].running).to.equal(false);
    expect(await pool.run({ kind: 'thread' })).to.not.equal(thread);
  });

  it('leaves a replaced grown worker stopped until work comes', async () => {
    pool = new WorkerPool<Task, number>({ script: SCRIPT, size: 1, name: 'test', idleMs: 60_000, recycleAboveBytes: 32 * 1024 * 1024 });
    await pool.run({ kind: 'grow-wasm', megabytes: 40 });
    expect(pool.stats().recycled).to.equal(1);
    expect(pool.stats().workers[0].running).to.equal(false);
    expect(await pool.run({ kind: 'grow-wasm', megabytes: 1 })).to.be.below(4 * 1024 * 1024);
  });

  it('stops the replacement of a crashed worker too once it is left without work', async () => {
    pool = new WorkerPool<Task, number>({ script: SCRIPT, size: 1, name: 'test', idleMs: 20 });
    await pool.run({ kind: 'crash' }).catch(() => undefined);
    await waitFor(() => !pool.stats().workers[0].running);
    expect(pool.stats().workers[0].running).to.equal(false);
    expect(await pool.run({ kind: 'double', value: 21 })).to.equal(42);
  });

  it('keeps its workers running without idleMs', async () => {
    pool = new WorkerPool<Task, number>({ script: SCRIPT, size: 1, name: 'test' });
    const thread = await pool.run({ kind: 'thread' });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(pool.stats().workers[0].running).to.equal(true);
    expect(await pool.run({ kind: 'thread' })).to.equal(thread);
  });
});
