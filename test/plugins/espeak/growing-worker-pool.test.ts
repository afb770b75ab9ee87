import { expect } from 'chai';
import { join } from 'node:path';
import { GrowingWorkerPool } from '../../../plugins/espeak/growing-worker-pool';
import { EspeakSynthesisClient } from '../../../plugins/espeak/client';
import { expectGatewayError } from '../../support/gateway-error-assertions';
import { SCRIPT as TEST_WORKER } from '../../core/workers/worker-pool-test-helpers';
import type { TestTask } from '../../core/workers/test-worker';

const SCRIPT = join(__dirname, 'sleepy-worker.js');

describe('espeak GrowingWorkerPool', () => {
  let pool: GrowingWorkerPool<{ ms: number }, number>;
  afterEach(() => pool.close());

  it('starts no thread before the first task, and reuses an idle one', async () => {
    pool = new GrowingWorkerPool({ script: SCRIPT, maxWorkers: 4, idleMs: 60_000, name: 'test' });
    expect(pool.running).to.equal(0);
    const first = await pool.run({ ms: 0 });
    const second = await pool.run({ ms: 0 });
    expect(second).to.equal(first);
    expect(pool.running).to.equal(1);
  });

  it('starts another thread only while every running one is busy, up to the maximum', async () => {
    pool = new GrowingWorkerPool({ script: SCRIPT, maxWorkers: 2, idleMs: 60_000, name: 'test' });
    const threads = await Promise.all([pool.run({ ms: 200 }), pool.run({ ms: 200 }), pool.run({ ms: 200 })]);
    expect(pool.running).to.equal(2);
    expect(new Set(threads).size).to.equal(2);
  });

  it('stops idle threads, and starts one again for the next task', async () => {
    pool = new GrowingWorkerPool({ script: SCRIPT, maxWorkers: 2, idleMs: 60_000, name: 'test' });
    const before = await pool.run({ ms: 0 });
    await pool.stopIdle();
    expect(pool.running).to.equal(0);
    const after = await pool.run({ ms: 0 });
    expect(after).to.not.equal(before);
  });

  it('stops a thread left without a task for idleMs', async () => {
    pool = new GrowingWorkerPool({ script: SCRIPT, maxWorkers: 1, idleMs: 20, name: 'test' });
    await pool.run({ ms: 0 });
    expect(pool.running).to.equal(1);
    for (let wait = 0; wait < 200 && pool.running > 0; wait += 1) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(pool.running).to.equal(0);
  });

  it('stops every thread of a burst, the last one too, surplusIdleMs after it', async () => {
    pool = new GrowingWorkerPool({ script: SCRIPT, maxWorkers: 3, idleMs: 60_000, surplusIdleMs: 10, name: 'test' });
    const burst = new Set(await Promise.all([pool.run({ ms: 200 }), pool.run({ ms: 200 }), pool.run({ ms: 200 })]));
    expect(burst.size).to.equal(3);
    for (let wait = 0; wait < 300 && pool.running > 0; wait += 1) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(pool.running).to.equal(0);
    // Quiet again: the next thread is one of steady use, kept for idleMs.
    const next = await pool.run({ ms: 0 });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(pool.running).to.equal(1);
    expect(await pool.run({ ms: 0 })).to.equal(next);
  });

  it('keeps the one thread of steady use for idleMs', async () => {
    pool = new GrowingWorkerPool({ script: SCRIPT, maxWorkers: 2, idleMs: 60_000, surplusIdleMs: 10, name: 'test' });
    const first = await pool.run({ ms: 0 });
    expect(await pool.run({ ms: 20 })).to.equal(first);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(pool.running).to.equal(1);
    expect(await pool.run({ ms: 0 })).to.equal(first);
  });

  it('stops an idle thread beside a busy one, never the busy one', async () => {
    pool = new GrowingWorkerPool({ script: SCRIPT, maxWorkers: 2, idleMs: 60_000, surplusIdleMs: 10, name: 'test' });
    const short = pool.run({ ms: 0 });
    let longDone = false;
    const long = pool.run({ ms: 1000 }).finally(() => (longDone = true));
    const idleThread = await short;
    for (let wait = 0; wait < 300 && pool.running > 1; wait += 1) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(pool.running).to.equal(1);
    expect(longDone).to.equal(false);
    expect(await long).to.not.equal(idleThread);
  });

  it('gives a waiting task to the first thread that comes free, never leaving it behind a held one', async () => {
    const holding = new GrowingWorkerPool<TestTask, number>({ script: TEST_WORKER, maxWorkers: 2, idleMs: 60_000, name: 'test' });
    const flag = new SharedArrayBuffer(4);
    try {
      // One thread held (a long or stuck synthesis), the other busy a moment: the third task waits.
      const held = holding.run({ kind: 'block', flag });
      const quick = holding.run({ kind: 'thread' });
      const waiting = holding.run({ kind: 'thread' });
      // Answered by the thread that came free while the other is still held (it hung here before).
      expect(await waiting).to.equal(await quick);
      Atomics.store(new Int32Array(flag), 0, 1);
      Atomics.notify(new Int32Array(flag), 0);
      await held;
    } finally {
      await holding.close();
    }
  });

  it('refuses tasks once closed', async () => {
    pool = new GrowingWorkerPool({ script: SCRIPT, maxWorkers: 1, idleMs: 60_000, name: 'test' });
    await pool.close();
    expect((await expectGatewayError(pool.run({ ms: 0 }))).code).to.equal('TTS_ERR_UNAVAILABLE');
  });
});

describe('espeak start-up', function () {
  this.timeout(60_000);

  it('holds no engine once the voice list is read and the start is over', async () => {
    const client = new EspeakSynthesisClient(2);
    try {
      expect(client.runningWorkers).to.equal(0);
      expect((await client.listVoices()).length).to.be.greaterThan(100);
      expect(client.runningWorkers).to.equal(1);
      await client.stopIdleWorkers();
      expect(client.runningWorkers).to.equal(0);
    } finally {
      await client.close();
    }
  });
});
