/** Messages between a pool and its workers. */
export interface TaskMessage<Task> {
  readonly id: number;
  readonly task: Task;
}

export type ResultMessage<Result> =
  | { readonly id: number; readonly ok: true; readonly result: Result }
  | { readonly id: number; readonly ok: false; readonly error: { readonly message: string; readonly code?: string } };
