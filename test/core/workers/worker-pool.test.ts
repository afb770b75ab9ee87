import { expect } from 'chai';
import { join } from 'node:path';
import { GatewayError, WorkerPool } from '../../../core';

type Task = { kind: 'double'; value: number } | { kind: 'coded-failure' } | { kind: 'crash' } | { kind: 'wait'; ms: number };

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

  it('drops a queued task whose signal aborts', async () => {
    const busy = [pool.run({ kind: 'wait', ms: 200 }), pool.run({ kind: 'wait', ms: 200 })];
    const controller = new AbortController();
    const queued = pool.run({ kind: 'double', value: 1 }, [], controller.signal);
    controller.abort();
    const error = await queued.catch((caught: unknown) => caught);
    expect(error).to.be.instanceOf(GatewayError).with.property('code', 'TTS_ERR_CANCELLED');
    await Promise.all(busy);
  });
});
