import { GatewayError } from '../../../core/errors';
import { serveWorkerTasks } from '../../../core/workers';

/** A worker for the pool's tests: doubles numbers, fails on demand, crashes on demand. */
serveWorkerTasks<{ kind: 'double'; value: number } | { kind: 'coded-failure' } | { kind: 'crash' } | { kind: 'wait'; ms: number }, number>(async (task) => {
  if (task.kind === 'double') return { result: task.value * 2 };
  if (task.kind === 'coded-failure') throw new GatewayError('TTS_ERR_UNSUPPORTED_FORMAT', 'no such format');
  if (task.kind === 'wait') {
    await new Promise((resolve) => setTimeout(resolve, task.ms));
    return { result: task.ms };
  }
  process.exit(3);
});
