import { expect } from 'chai';
import { join } from 'node:path';
import { GatewayError, WorkerPool } from '../../../core';

const EXITS_AT_START = join(__dirname, 'exit-at-start-worker.js');

describe('core/workers WorkerPool: a worker that cannot start', function () {
  this.timeout(20_000);
  let pool: WorkerPool<number, number>;
  afterEach(() => pool.close());

  const stopped = (): boolean => !pool.stats().workers[0].running;
  const waitFor = async (condition: () => boolean): Promise<boolean> => {
    for (let wait = 0; wait < 200 && !condition(); wait += 1) await new Promise((resolve) => setTimeout(resolve, 10));
    return condition();
  };

  it('is not started again and again while no work waits: its slot stays stopped until a task comes', async () => {
    pool = new WorkerPool<number, number>({ script: EXITS_AT_START, size: 1, name: 'test' });
    // Before, each exit started a replacement at once, which exited in turn: threads made without end.
    expect(await waitFor(stopped), 'slot stopped').to.equal(true);
  });

  it('still answers each task given to it, as crashed', async () => {
    pool = new WorkerPool<number, number>({ script: EXITS_AT_START, size: 1, name: 'test' });
    for (let task = 0; task < 2; task += 1) {
      const error = await pool.run(task).catch((caught: unknown) => caught);
      expect(error).to.be.instanceOf(GatewayError).with.property('code', 'TTS_ERR_INTERNAL');
    }
    expect(await waitFor(stopped), 'slot stopped').to.equal(true);
  });
});
