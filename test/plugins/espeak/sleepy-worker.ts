/** A worker for the growing pool's tests: answers with its thread id after waiting `ms`. */
import { threadId } from 'node:worker_threads';
import { serveWorkerTasks } from '../../../core/workers';

serveWorkerTasks<{ ms: number }, number>(async (task) => {
  await new Promise((resolve) => setTimeout(resolve, task.ms));
  return { result: threadId };
});
