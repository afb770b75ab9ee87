/** Public entry point for worker scripts (light: it loads nothing else of core). Also re-exported by core/index.ts. */
export { WorkerPool, type WorkerPoolOptions, type WorkerPoolStats, type WorkerPin, type RunOptions, type TaskCost, type PoolReservation } from './worker-pool';
export { serveWorkerTasks, type ServeOptions, type TaskControl, type WorkerReply } from './serve-worker-tasks';
export { wasmMemoryBytes } from './wasm-memory-meter';
export { WorkRates } from './work-rates';
