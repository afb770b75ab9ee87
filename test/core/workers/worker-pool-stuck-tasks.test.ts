import { expect } from 'chai';
import { GatewayError, WorkerPool } from '../../../core';
import type { TestTask as Task } from './test-worker';
import { SCRIPT } from './worker-pool-test-helpers';

const GRACE_MS = 100;

async function codeOf(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => expect.fail('expected a failure'),
    (caught: unknown) => caught,
  );
  expect(error).to.be.instanceOf(GatewayError);
  return (error as GatewayError).code;
}

describe('core/workers WorkerPool: a cancelled task that does not stop', function () {
  this.timeout(20_000);
  let pool: WorkerPool<Task, number>;
  beforeEach(() => {
    pool = new WorkerPool<Task, number>({ script: SCRIPT, size: 1, name: 'test', cancelGraceMs: GRACE_MS });
  });
  afterEach(() => pool.close());

  it('loses its worker after the grace, and the pool goes on with a new one', async () => {
    const before = await pool.run({ kind: 'thread' });
    const caller = new AbortController();
    // Blocks its thread and never looks at the cancel flag, as a codec stuck in a loop would.
    const stuck = pool.run({ kind: 'block', flag: new SharedArrayBuffer(4) }, [], caller.signal);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const waiting = pool.run({ kind: 'double', value: 21 });
    caller.abort();
    expect(await codeOf(stuck)).to.equal('TTS_ERR_CANCELLED');
    expect(await waiting).to.equal(42);
    expect(await pool.run({ kind: 'thread' })).to.not.equal(before);
    expect(pool.stats().terminatedStuck).to.equal(1);
  });

  it('keeps the worker of a task that stops within the grace', async () => {
    const before = await pool.run({ kind: 'thread' });
    const caller = new AbortController();
    const polling = pool.run({ kind: 'until-cancelled' }, [], caller.signal);
    await new Promise((resolve) => setTimeout(resolve, 50));
    caller.abort();
    expect(await polling).to.equal(1);
    await new Promise((resolve) => setTimeout(resolve, GRACE_MS * 2));
    expect(await pool.run({ kind: 'thread' })).to.equal(before);
    expect(pool.stats().terminatedStuck).to.equal(0);
  });

  it('fails the tasks pinned to the lost worker, whose state is gone', async () => {
    const pin = pool.pin();
    const caller = new AbortController();
    const stuck = pool.run({ kind: 'block', flag: new SharedArrayBuffer(4) }, [], caller.signal, { pin });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const next = pool.run({ kind: 'double', value: 1 }, [], undefined, { pin });
    caller.abort();
    expect(await codeOf(stuck)).to.equal('TTS_ERR_CANCELLED');
    expect(await codeOf(next)).to.equal('TTS_ERR_INTERNAL');
    expect(pin.alive).to.equal(false);
    expect(await pool.run({ kind: 'double', value: 2 })).to.equal(4);
  });
});
