/** A stored audio file as `save()` names it. */
export interface SavedAudio {
  /** `<random>.<ext>`, or `<random>.<rate>.pcm` for raw PCM (see FileSystemAudioStore). */
  readonly fileName: string;
  readonly size: number;
}

export interface SaveAudioOptions {
  /** Sample rate of raw `pcm` bytes, which carry no header of their own. */
  readonly sampleRate?: number;
}

/** A servable file found by `locate()`. */
export interface LocatedAudio {
  /** Absolute path inside the store's directory. */
  readonly path: string;
  readonly size: number;
  readonly mtime: Date;
  /** The extension, without the dot (`mp3`, `pcm`, ...). */
  readonly extension: string;
  /** Set for raw PCM files. */
  readonly sampleRate?: number;
  /** When the file stops being served. */
  readonly expiresAt: Date;
}

/**
 * Where generated audio lives until it expires. The file name is the capability to download,
 * so names are unguessable; `locate()` is the only way from a client-given name to a file.
 */
export interface AudioStore {
  /** Stores the bytes atomically under a fresh unguessable name. */
  save(bytes: Uint8Array, extension: string, options?: SaveAudioOptions): Promise<SavedAudio>;
  /**
   * Finds a live file by name. Throws a 404 GatewayError for a name that is not one this store
   * could have produced (traversal attempts included); undefined for a missing or expired file.
   */
  locate(fileName: string): Promise<LocatedAudio | undefined>;
  /** Deletes expired files; returns how many were removed. */
  sweep(): Promise<number>;
  /** Sweeps every `intervalMs` on an unref'd timer; returns a function that stops it. */
  startSweeper(intervalMs: number): () => void;
}
