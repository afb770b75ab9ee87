import { parentPort, type TransferListItem } from 'node:worker_threads';
import type { ResultMessage, TaskMessage } from './worker-protocol';

/** What a task handler returns: the result and the buffers to move back to the caller. */
export interface WorkerReply<Result> {
  readonly result: Result;
  readonly transfer?: readonly TransferListItem[];
}

/** Called once in a worker script: answers the pool's task messages with `handler`. */
export function serveWorkerTasks<Task, Result>(handler: (task: Task) => Promise<WorkerReply<Result>> | WorkerReply<Result>): void {
  const port = parentPort;
  if (!port) throw new Error('serveWorkerTasks must run inside a worker thread');
  port.on('message', async (message: TaskMessage<Task>) => {
    try {
      const reply = await handler(message.task);
      const answer: ResultMessage<Result> = { id: message.id, ok: true, result: reply.result };
      port.postMessage(answer, (reply.transfer ?? []) as TransferListItem[]);
    } catch (error) {
      const text = error instanceof Error ? error.message : String(error);
      // A coded error (GatewayError) keeps its code across the thread boundary.
      const code: unknown = (error as { code?: unknown } | null)?.code;
      const answer: ResultMessage<Result> = { id: message.id, ok: false, error: { message: text, ...(typeof code === 'string' && { code }) } };
      port.postMessage(answer);
    }
  });
}
