/** Messages between a pool and its workers. */
export interface TaskMessage<Task> {
  readonly id: number;
  readonly task: Task;
  /** One Int32 the pool sets to 1 when the task's caller gives up while it runs. */
  readonly cancelFlag: SharedArrayBuffer;
}

export type ResultMessage<Result> = (
  | { readonly id: number; readonly ok: true; readonly result: Result }
  | { readonly id: number; readonly ok: false; readonly error: { readonly message: string; readonly code?: string } }
) & {
  /**
   * The worker's WebAssembly memories after the task, in bytes (they grow with the largest job
   * and never shrink): the pool replaces a worker that holds too much once it is idle.
   */
  readonly wasmBytes?: number;
};
