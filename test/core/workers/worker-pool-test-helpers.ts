import { expect } from 'chai';
import { join } from 'node:path';
import { GatewayError, type WorkerPool } from '../../../core';
import type { TestTask as Task } from './test-worker';

/** The compiled test worker that the pools of these tests run. */
export const SCRIPT = join(__dirname, 'test-worker.js');

/** Holds the pool's only worker until `release()`, so that what is queued behind it stays queued. */
export function blocker(pool: WorkerPool<Task, number>, cost?: { kind: string; units: number }) {
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

/** Awaits a refused task and returns its GatewayError. */
export async function refusal(promise: Promise<unknown>): Promise<GatewayError> {
  const error = await promise.then(
    () => expect.fail('expected a refusal'),
    (caught: unknown) => caught,
  );
  expect(error).to.be.instanceOf(GatewayError);
  return error as GatewayError;
}
