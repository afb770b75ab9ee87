import type { Readable } from 'node:stream';
import type { StoredBytes } from './owner-ledger';

/** A stored audio file as `save()` names it. */
export interface SavedAudio {
  /** `<random>.<ext>`, or `<random>.<rate>.pcm` for raw PCM (see audio-file-name.ts). */
  readonly fileName: string;
  readonly size: number;
}

export interface SaveAudioOptions {
  /** Sample rate of raw `pcm` bytes, which carry no header of their own. */
  readonly sampleRate?: number;
  /** The account the file counts against (`limits.storageBytes`), where the store counts owners. */
  readonly owner?: string;
  /** Stops the write; a stopped or failed save leaves nothing behind. */
  readonly signal?: AbortSignal;
}

/** How a read may be stopped: the request's deadline, or its client leaving. */
export interface ReadOptions {
  /** Stops the read; the call then rejects with the signal's reason, and the stream ends with an error. */
  readonly signal?: AbortSignal;
}

/** Bytes `start` to `end` of a file, both included (as in HTTP's Range). */
export interface ByteRange {
  readonly start: number;
  readonly end: number;
}

/** A servable file found by `locate()`. */
export interface LocatedAudio {
  readonly size: number;
  /** When the file's bytes were stored (Last-Modified); a renewal of its lifetime does not move it. */
  readonly mtime: Date;
  /** The extension, without the dot (`mp3`, `pcm`, ...). */
  readonly extension: string;
  /** Set for raw PCM files. */
  readonly sampleRate?: number;
  /** When the file stops being served. */
  readonly expiresAt: Date;
  /**
   * Streams the file's bytes, or the range of them. Rejects with a 404 GatewayError when the
   * file went away since `locate()` (swept by another replica); with 503 TTS_ERR_UNAVAILABLE
   * when the store cannot be read now.
   */
  open(range?: ByteRange, options?: ReadOptions): Promise<Readable>;
}

/**
 * Where generated audio lives until it expires: a local folder or an S3-compatible bucket. The
 * file name is the capability to download, so names are unguessable; `locate()` is the only way
 * from a client-given name to a file.
 */
export interface AudioStore {
  /**
   * Stores the bytes atomically (readers see all of them or none) under a fresh unguessable name.
   * A full or unwritable store rejects with 507 TTS_ERR_STORAGE_FULL.
   */
  save(bytes: Uint8Array, extension: string, options?: SaveAudioOptions): Promise<SavedAudio>;
  /**
   * A fresh unguessable name for the bytes of a stored file, without copying them, as durable as
   * a save and living a full retention from now; undefined when that file is gone or expired.
   * `options.owner` and `options.signal` as in save(): a stopped share leaves no name and counts
   * nothing. Absent where the store cannot (S3): callers read and save.
   */
  share?(fileName: string, options?: Pick<SaveAudioOptions, 'owner' | 'signal'>): Promise<SavedAudio | undefined>;
  /** Bytes of the live files saved for an owner; absent when the store does not count owners (S3). */
  storedBytes?(owner: string): Promise<StoredBytes>;
  /**
   * Finds a live file by name. Throws a 404 GatewayError for a name that is not one this store
   * could have produced (traversal attempts included); undefined for a missing or expired file
   * (gone for good); rejects with 503 TTS_ERR_UNAVAILABLE when the store cannot tell now (S3
   * answered 5xx or not at all, a disk's I/O error), which is no answer that the file is gone.
   */
  locate(fileName: string, options?: ReadOptions): Promise<LocatedAudio | undefined>;
  /** Deletes expired files; returns how many were removed. */
  sweep(): Promise<number>;
  /** Writes and removes a small file: throws when the store cannot take new audio (readiness check). */
  checkWritable(): Promise<void>;
  /** Sweeps every `intervalMs` on an unref'd timer; returns a function that stops it. */
  startSweeper(intervalMs: number): () => void;
}
