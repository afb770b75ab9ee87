/** Messages between the gateway and its save thread. */

/** One file to create, write and flush, with its folder. */
export interface SaveOrder {
  readonly id: number;
  readonly path: string;
  readonly bytes: Uint8Array;
  readonly mode: number;
}

/** A folder to flush (a name made on the gateway's thread: a hard link), with the saves of the same batch. */
export interface FolderFlushOrder {
  readonly id: number;
  readonly folder: string;
}

export type ThreadOrder = SaveOrder | FolderFlushOrder;

/**
 * What failed, with what a file system error carries. Its message names the file: the store's
 * `storageFailure` replaces it (from code and system call) before it reaches a client or a log.
 */
export interface SaveFailure {
  readonly code?: string;
  readonly syscall?: string;
  readonly message: string;
}

export interface SaveOutcome {
  readonly id: number;
  readonly failure?: SaveFailure;
}

/** The outcomes of one batch, answered together: one wake-up of the gateway's thread per batch. */
export type SaveOutcomes = readonly SaveOutcome[];
