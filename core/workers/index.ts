export { WorkerPool, type WorkerPoolOptions } from './worker-pool';
export { serveWorkerTasks, type WorkerReply } from './serve-worker-tasks';
