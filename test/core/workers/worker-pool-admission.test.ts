import { expect } from 'chai';
import { WorkerPool, type WorkerPoolOptions } from '../../../core';
import type { TestTask as Task } from './test-worker';
import { blocker, refusal, SCRIPT } from './worker-pool-test-helpers';

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
