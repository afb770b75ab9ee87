/** Public entry point for worker scripts (light: it loads nothing else of core). Also re-exported by core/index.ts. */
export { WorkerPool, type WorkerPoolOptions, type WorkerPin, type RunOptions } from './worker-pool';
export { serveWorkerTasks, type WorkerReply } from './serve-worker-tasks';
