/**
 * Run by worker-pool-retention.test.ts in a child `node --expose-gc`: pushes jobs carrying
 * 100 KB buffers through a WorkerPool under one long-lived combined signal (as a server's
 * shutdown signal combined with others), forces GC, and prints the memory growth as JSON.
 */
import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { WorkerPool } from '../../../core/workers';
import type { TestTask } from './test-worker';

const PAYLOAD_BYTES = 100_000;
const BATCH = 8;

async function collect(): Promise<number> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with --expose-gc');
  for (let round = 0; round < 4; round += 1) {
    gc();
    await nextTurn();
  }
  const usage = process.memoryUsage();
  // The payloads are ArrayBuffers, counted outside the JS heap.
  return usage.heapUsed + usage.arrayBuffers;
}

async function main(): Promise<void> {
  const jobs = Number(process.argv[2]);
  const pool = new WorkerPool<TestTask, number>({ script: join(__dirname, 'test-worker.js'), size: 2, name: 'probe' });
  const neverAborted = new AbortController();
  const other = new AbortController();
  const signal = AbortSignal.any([neverAborted.signal, other.signal]);
  const runJobs = async (count: number): Promise<void> => {
    for (let done = 0; done < count; done += BATCH) {
      const batch = Array.from({ length: Math.min(BATCH, count - done) }, () => pool.run({ kind: 'byte-length', bytes: new Uint8Array(PAYLOAD_BYTES).fill(7) }, [], signal));
      for (const length of await Promise.all(batch)) if (length !== PAYLOAD_BYTES) throw new Error(`worker saw ${length} bytes`);
    }
  };
  await runJobs(40);
  const before = await collect();
  await runJobs(jobs);
  const after = await collect();
  process.stdout.write(`${JSON.stringify({ jobs, growthBytes: after - before, signalAborted: signal.aborted })}\n`);
  await pool.close();
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${String(error)}\n`);
    process.exit(1);
  },
);
