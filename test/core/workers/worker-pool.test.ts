import { expect } from 'chai';
import { getEventListeners } from 'node:events';
import { join } from 'node:path';
import { GatewayError, WorkerPool } from '../../../core';
import type { TestTask as Task } from './test-worker';

describe('core/workers WorkerPool', function () {
  this.timeout(20_000);
  let pool: WorkerPool<Task, number>;
  beforeEach(() => {
    pool = new WorkerPool<Task, number>({ script: join(__dirname, 'test-worker.js'), size: 2, name: 'test' });
  });
  afterEach(() => pool.close());

  it('runs more tasks than threads, each answered with its own result', async () => {
    const results = await Promise.all([1, 2, 3, 4, 5].map((value) => pool.run({ kind: 'double', value })));
    expect(results).to.deep.equal([2, 4, 6, 8, 10]);
  });

  it('keeps the code of a coded error thrown in a worker', async () => {
    const error = await pool.run({ kind: 'coded-failure' }).catch((caught: unknown) => caught);
    expect(error).to.be.instanceOf(GatewayError).with.property('code', 'TTS_ERR_UNSUPPORTED_FORMAT');
  });

  it('replaces a crashed worker and fails only its task', async () => {
    const crashed = await pool.run({ kind: 'crash' }).catch((caught: unknown) => caught);
    expect(crashed).to.be.instanceOf(GatewayError).with.property('code', 'TTS_ERR_INTERNAL');
    expect(await pool.run({ kind: 'double', value: 21 })).to.equal(42);
  });

  it('fails the tasks still running when it closes instead of leaving them unanswered', async () => {
    const running = pool.run({ kind: 'wait', ms: 10_000 }).catch((caught: unknown) => caught);
    await new Promise((resolve) => setTimeout(resolve, 100));
    await pool.close();
    const outcome = await Promise.race([running, new Promise((resolve) => setTimeout(() => resolve('unanswered'), 1_000))]);
    expect(outcome).to.be.instanceOf(GatewayError).with.property('code', 'TTS_ERR_UNAVAILABLE');
  });

  it('drops a queued task whose signal aborts', async () => {
    const busy = [pool.run({ kind: 'wait', ms: 200 }), pool.run({ kind: 'wait', ms: 200 })];
    const controller = new AbortController();
    const queued = pool.run({ kind: 'double', value: 1 }, [], controller.signal);
    controller.abort();
    const error = await queued.catch((caught: unknown) => caught);
    expect(error).to.be.instanceOf(GatewayError).with.property('code', 'TTS_ERR_CANCELLED');
    await Promise.all(busy);
  });

  it('removes its abort listener from the signal once each task is done, dropped or failed', async () => {
    const signal = AbortSignal.any([new AbortController().signal, new AbortController().signal]);
    await Promise.all([1, 2, 3].map((value) => pool.run({ kind: 'double', value }, [], signal)));
    await pool.run({ kind: 'coded-failure' }, [], signal).catch(() => undefined);
    expect(getEventListeners(signal, 'abort')).to.have.length(0);
    const busy = [pool.run({ kind: 'wait', ms: 100 }), pool.run({ kind: 'wait', ms: 100 })];
    const dropper = new AbortController();
    const combined = AbortSignal.any([signal, dropper.signal]);
    const queued = pool.run({ kind: 'double', value: 1 }, [], combined);
    expect(getEventListeners(combined, 'abort')).to.have.length(1);
    dropper.abort();
    await queued.catch(() => undefined);
    await Promise.all(busy);
    expect(getEventListeners(combined, 'abort')).to.have.length(0);
    expect(getEventListeners(signal, 'abort')).to.have.length(0);
  });
});

describe('core/workers WorkerPool pins (worker affinity)', function () {
  this.timeout(20_000);
  let pool: WorkerPool<Task, number>;
  beforeEach(() => {
    pool = new WorkerPool<Task, number>({ script: join(__dirname, 'test-worker.js'), size: 2, name: 'test' });
  });
  afterEach(() => pool.close());

  it('runs every pinned task on its worker while unpinned tasks use any', async () => {
    const pin = pool.pin();
    const runs = Array.from({ length: 6 }, (_unused, index) => (index % 2 === 0 ? pool.run({ kind: 'thread' }, [], undefined, { pin }) : pool.run({ kind: 'wait', ms: 5 })));
    const results = await Promise.all(runs);
    const pinnedThreads = new Set(results.filter((_result, index) => index % 2 === 0));
    expect(pinnedThreads.size).to.equal(1);
    expect(pin.worker).to.be.oneOf([0, 1]);
  });

  it('spreads pins over the workers and reuses a released one', async () => {
    const first = pool.pin();
    const second = pool.pin();
    expect(first.worker).to.not.equal(second.worker);
    const threads = await Promise.all([first, second].map((pin) => pool.run({ kind: 'thread' }, [], undefined, { pin })));
    expect(threads[0]).to.not.equal(threads[1]);
    first.release();
    first.release();
    expect(first.alive).to.equal(false);
    expect(pool.pin().worker).to.equal(first.worker);
    await expectCode(pool.run({ kind: 'thread' }, [], undefined, { pin: first }), 'TTS_ERR_INTERNAL');
  });

  it('makes a task pinned to a busy worker wait while unpinned tasks take the free one', async () => {
    const pin = pool.pin();
    const order: string[] = [];
    const flag = new SharedArrayBuffer(4);
    const blocked = pool.run({ kind: 'block', flag }, [], undefined, { pin }).then(() => order.push('pinned block'));
    const pinned = pool.run({ kind: 'thread' }, [], undefined, { pin }).then((thread) => {
      order.push('pinned');
      return thread;
    });
    // The pinned worker is held until these are done: they can only finish on the other one.
    const free = await Promise.all([1, 2, 3].map((value) => pool.run({ kind: 'thread' }).then((thread) => (order.push(`free ${value}`), thread))));
    Atomics.store(new Int32Array(flag), 0, 1);
    Atomics.notify(new Int32Array(flag), 0);
    const [pinnedThread] = await Promise.all([pinned, blocked]);
    expect(order).to.deep.equal(['free 1', 'free 2', 'free 3', 'pinned block', 'pinned']);
    expect(free.every((thread) => thread !== pinnedThread)).to.equal(true);
  });

  it('fails the pinned tasks of a crashed worker as internal errors, and later ones too', async () => {
    const pin = pool.pin();
    const other = pool.pin();
    const crash = pool.run({ kind: 'crash' }, [], undefined, { pin });
    const queued = pool.run({ kind: 'double', value: 2 }, [], undefined, { pin });
    await expectCode(crash, 'TTS_ERR_INTERNAL');
    await expectCode(queued, 'TTS_ERR_INTERNAL');
    expect(pin.alive).to.equal(false);
    await expectCode(pool.run({ kind: 'double', value: 2 }, [], undefined, { pin }), 'TTS_ERR_INTERNAL');
    expect(await pool.run({ kind: 'double', value: 4 }, [], undefined, { pin: other })).to.equal(8);
    const fresh = pool.pin();
    expect(await pool.run({ kind: 'double', value: 5 }, [], undefined, { pin: fresh })).to.equal(10);
  });

  it('refuses a pin of another pool', async () => {
    const stranger = new WorkerPool<Task, number>({ script: join(__dirname, 'test-worker.js'), size: 1, name: 'other' });
    try {
      const error = await pool.run({ kind: 'thread' }, [], undefined, { pin: stranger.pin() }).catch((caught: unknown) => caught);
      expect(error).to.be.instanceOf(TypeError);
    } finally {
      await stranger.close();
    }
  });
});

async function expectCode(promise: Promise<unknown>, code: string): Promise<void> {
  const error = await promise.then(
    () => expect.fail(`expected ${code}`),
    (caught: unknown) => caught,
  );
  expect(error).to.be.instanceOf(GatewayError).with.property('code', code);
}
