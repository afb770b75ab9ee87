import { expect } from 'chai';
import { join } from 'node:path';
import { GatewayError, WorkerPool, type WorkerPoolOptions } from '../../../core';
import type { TestTask as Task } from './test-worker';

const SCRIPT = join(__dirname, 'test-worker.js');

/** Holds the pool's only worker until `release()`, so that what is queued behind it stays queued. */
function blocker(pool: WorkerPool<Task, number>, cost?: { kind: string; units: number }) {
  const flag = new SharedArrayBuffer(4);
  const done = pool.run({ kind: 'block', flag }, [], undefined, cost ? { cost } : {});
  return {
    done,
    release(): void {
      Atomics.store(new Int32Array(flag), 0, 1);
      Atomics.notify(new Int32Array(flag), 0);
    },
  };
}

async function refusal(promise: Promise<unknown>): Promise<GatewayError> {
  const error = await promise.then(
    () => expect.fail('expected a refusal'),
    (caught: unknown) => caught,
  );
  expect(error).to.be.instanceOf(GatewayError);
  return error as GatewayError;
}

describe('core/workers WorkerPool admission (load shedding)', function () {
  this.timeout(20_000);
  let pool: WorkerPool<Task, number>;
  const open = (options: Partial<WorkerPoolOptions>) => {
    pool = new WorkerPool<Task, number>({ script: SCRIPT, size: 1, name: 'test', ...options });
    return pool;
  };
  afterEach(() => pool.close());

  it('refuses a task at once with 503 and Retry-After when the queue is full, and serves the queued ones', async () => {
    open({ maxQueued: 2 });
    const busy = blocker(pool);
    const queued = [pool.run({ kind: 'double', value: 1 }), pool.run({ kind: 'double', value: 2 })];
    const refused = await refusal(pool.run({ kind: 'double', value: 3 }));
    expect(refused.code).to.equal('TTS_ERR_UNAVAILABLE');
    expect(refused.status).to.equal(503);
    expect(refused.retryAfterSeconds).to.be.at.least(1);
    expect(refused.message).to.include('queue is full');
    expect(pool.stats().queued).to.equal(2);
    busy.release();
    expect(await Promise.all(queued)).to.deep.equal([2, 4]);
    await busy.done;
  });

  it('refuses at once a task that cannot finish by its deadline, by the rate it starts from, and takes one that can', async () => {
    // 1 s per unit: the blocker is expected to hold the worker for 10 s.
    open({ initialMsPerUnit: { work: 1000 } });
    const busy = blocker(pool, { kind: 'work', units: 10 });
    const soon = await refusal(pool.run({ kind: 'double', value: 1 }, [], undefined, { deadline: Date.now() + 3000, cost: { kind: 'work', units: 1 } }));
    expect(soon.code).to.equal('TTS_ERR_UNAVAILABLE');
    expect(soon.message).to.include('cannot finish this work in time');
    expect(soon.retryAfterSeconds).to.be.within(9, 11);
    const later = pool.run({ kind: 'double', value: 2 }, [], undefined, { deadline: Date.now() + 60_000, cost: { kind: 'work', units: 1 } });
    busy.release();
    expect(await later).to.equal(4);
    await busy.done;
  });

  it('keeps only the given share of the time left for a task (the rest is for the stages after it)', async () => {
    open({ initialMsPerUnit: { work: 1000 }, admissionShare: 0.5 });
    const busy = blocker(pool, { kind: 'work', units: 10 });
    // 11 s of work before it is done: within 16 s, not within half of 16 s.
    const refused = await refusal(pool.run({ kind: 'double', value: 1 }, [], undefined, { deadline: Date.now() + 16_000, cost: { kind: 'work', units: 1 } }));
    expect(refused.code).to.equal('TTS_ERR_UNAVAILABLE');
    const taken = pool.run({ kind: 'double', value: 3 }, [], undefined, { deadline: Date.now() + 30_000, cost: { kind: 'work', units: 1 } });
    busy.release();
    expect(await taken).to.equal(6);
    await busy.done;
  });

  it('never refuses the next piece of admitted work, however full the queue', async () => {
    open({ maxQueued: 1, initialMsPerUnit: { work: 1000 } });
    const busy = blocker(pool, { kind: 'work', units: 100 });
    const first = pool.run({ kind: 'double', value: 1 });
    const continued = pool.run({ kind: 'double', value: 5 }, [], undefined, { admitted: true, deadline: Date.now() + 1000, cost: { kind: 'work', units: 1 } });
    busy.release();
    expect(await Promise.all([first, continued])).to.deep.equal([2, 10]);
    await busy.done;
  });

  it('serves the earliest deadline first: work already under way finishes before newer work', async () => {
    open({});
    const busy = blocker(pool);
    const order: string[] = [];
    const now = Date.now();
    const late = pool.run({ kind: 'double', value: 1 }, [], undefined, { deadline: now + 100_000 }).then(() => order.push('late'));
    const undated = pool.run({ kind: 'double', value: 1 }).then(() => order.push('no deadline'));
    const early = pool.run({ kind: 'double', value: 1 }, [], undefined, { deadline: now + 30_000 }).then(() => order.push('early'));
    const sameEarly = pool.run({ kind: 'double', value: 1 }, [], undefined, { deadline: now + 30_000 }).then(() => order.push('early, second'));
    busy.release();
    await Promise.all([late, undated, early, sameEarly, busy.done]);
    expect(order).to.deep.equal(['early', 'early, second', 'no deadline', 'late']);
  });

  it('drops a task still waiting at its deadline instead of running it', async () => {
    open({});
    const busy = blocker(pool);
    const stale = pool.run({ kind: 'double', value: 1 }, [], undefined, { admitted: true, deadline: Date.now() + 20 });
    await new Promise((resolve) => setTimeout(resolve, 60));
    busy.release();
    const error = await refusal(stale);
    expect(error.code).to.equal('TTS_ERR_TIMEOUT');
    expect(await pool.run({ kind: 'double', value: 4 })).to.equal(8);
    await busy.done;
  });

  it('raises the cancel flag of a running task when its signal aborts, so the handler stops early', async () => {
    open({});
    const controller = new AbortController();
    const running = pool.run({ kind: 'until-cancelled' }, [], controller.signal);
    // The task is posted as soon as the worker is free; abort once it runs.
    while (!pool.stats().workers[0].busy) await new Promise((resolve) => setImmediate(resolve));
    controller.abort();
    expect(await running).to.equal(1);
    expect(await pool.run({ kind: 'double', value: 2 })).to.equal(4);
  });

  it('replaces the rate it starts from with the one it measures', async () => {
    // Starts believing a unit takes an hour; one measured task corrects it.
    open({ initialMsPerUnit: { quick: 3_600_000 } });
    const deadline = () => Date.now() + 60_000;
    await refusal(pool.run({ kind: 'double', value: 1 }, [], undefined, { deadline: deadline(), cost: { kind: 'quick', units: 1 } }));
    // The worker's first task of the kind pays its start-up and is not measured; the next one is.
    await pool.run({ kind: 'double', value: 1 }, [], undefined, { admitted: true, cost: { kind: 'quick', units: 1 } });
    await refusal(pool.run({ kind: 'double', value: 1 }, [], undefined, { deadline: deadline(), cost: { kind: 'quick', units: 1 } }));
    await pool.run({ kind: 'double', value: 1 }, [], undefined, { admitted: true, cost: { kind: 'quick', units: 1 } });
    expect(await pool.run({ kind: 'double', value: 2 }, [], undefined, { deadline: deadline(), cost: { kind: 'quick', units: 1 } })).to.equal(4);
  });
});

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

  it('keeps its workers running without idleMs', async () => {
    pool = new WorkerPool<Task, number>({ script: SCRIPT, size: 1, name: 'test' });
    const thread = await pool.run({ kind: 'thread' });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(pool.stats().workers[0].running).to.equal(true);
    expect(await pool.run({ kind: 'thread' })).to.equal(thread);
  });
});

describe('core/workers WorkerPool reservations (room promised to work that comes later)', function () {
  this.timeout(20_000);
  let pool: WorkerPool<Task, number>;
  afterEach(() => pool.close());
  const quick = (units: number) => ({ kind: 'quick', units });

  it('counts promised room as work ahead: a task that would not fit behind it is refused at once, and fits once it is released', async () => {
    pool = new WorkerPool<Task, number>({ script: SCRIPT, size: 1, name: 'test', initialMsPerUnit: { quick: 1000 } });
    const deadline = Date.now() + 60_000;
    const reservation = pool.reserve({ deadline: deadline - 1000, cost: quick(40) });
    const error = await refusal(pool.run({ kind: 'double', value: 1 }, [], undefined, { deadline, cost: quick(30) }));
    expect(error.code).to.equal('TTS_ERR_UNAVAILABLE');
    expect(error.retryAfterSeconds).to.be.at.least(1);
    reservation.release();
    expect(await pool.run({ kind: 'double', value: 1 }, [], undefined, { deadline, cost: quick(30) })).to.equal(2);
  });

  it('refuses a reservation at once when the promised work could not finish in time', () => {
    pool = new WorkerPool<Task, number>({ script: SCRIPT, size: 1, name: 'test', initialMsPerUnit: { quick: 1000 } });
    const deadline = Date.now() + 60_000;
    pool.reserve({ deadline, cost: quick(40) });
    let caught: unknown;
    try {
      pool.reserve({ deadline, cost: quick(40) });
    } catch (error) {
      caught = error;
    }
    expect(caught).to.be.instanceOf(GatewayError);
    expect((caught as GatewayError).code).to.equal('TTS_ERR_UNAVAILABLE');
  });

  it('gives the room to the task run with it, so the task is not counted twice', async () => {
    pool = new WorkerPool<Task, number>({ script: SCRIPT, size: 1, name: 'test', initialMsPerUnit: { quick: 1000 } });
    const deadline = Date.now() + 60_000;
    const reservation = pool.reserve({ deadline, cost: quick(40) });
    expect(pool.stats().reserved).to.equal(1);
    // 40 s promised and 40 s run would not fit in 60 s if both counted.
    expect(await pool.run({ kind: 'double', value: 3 }, [], undefined, { deadline, cost: quick(40), reservation })).to.equal(6);
    expect(pool.stats().reserved).to.equal(0);
  });

  it('does not count promised room with a later deadline ahead of an earlier task', async () => {
    pool = new WorkerPool<Task, number>({ script: SCRIPT, size: 1, name: 'test', initialMsPerUnit: { quick: 1000 } });
    pool.reserve({ deadline: Date.now() + 600_000, cost: quick(40) });
    expect(await pool.run({ kind: 'double', value: 4 }, [], undefined, { deadline: Date.now() + 60_000, cost: quick(30) })).to.equal(8);
  });
});

describe('core/workers WorkerPool rates', function () {
  this.timeout(20_000);
  let pool: WorkerPool<Task, number>;
  afterEach(() => pool.close());

  it('does not learn from the first task of a kind on a worker (it paid the start-up), and learns from the next', async () => {
    pool = new WorkerPool<Task, number>({ script: SCRIPT, size: 1, name: 'test', initialMsPerUnit: { quick: 1000 } });
    const promiseTooLong = () => pool.reserve({ deadline: Date.now() + 60_000, cost: { kind: 'quick', units: 100 } });
    await pool.run({ kind: 'double', value: 1 }, [], undefined, { cost: { kind: 'quick', units: 1 } });
    // Still the starting guess: 100 units at 1 s each do not fit in 60 s.
    expect(promiseTooLong).to.throw(GatewayError);
    await pool.run({ kind: 'double', value: 1 }, [], undefined, { cost: { kind: 'quick', units: 1 } });
    // Measured now (a few ms a unit): they fit.
    promiseTooLong().release();
  });
});
