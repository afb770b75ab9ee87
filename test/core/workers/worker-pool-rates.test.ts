import { expect } from 'chai';
import { GatewayError, WorkerPool } from '../../../core';
import type { TestTask as Task } from './test-worker';
import { SCRIPT } from './worker-pool-test-helpers';

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
