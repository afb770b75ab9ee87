import { expect } from 'chai';
import { GatewayError, WorkerPool } from '../../../core';
import type { TestTask as Task } from './test-worker';
import { refusal, SCRIPT } from './worker-pool-test-helpers';

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
