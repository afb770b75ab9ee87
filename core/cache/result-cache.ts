import { LRUCache } from 'lru-cache';
import type { AudioFormat } from '../audio/audio-format';
import type { AppliedPlan } from '../synthesis/synthesis-plan';

/** What the cache remembers of a finished synthesis: where its bytes are and how it was made. */
export interface CachedResult {
  /** The stored file that holds the bytes (never handed to another account). */
  readonly fileName: string;
  readonly size: number;
  readonly format: AudioFormat;
  readonly sampleRate?: number;
  readonly applied: AppliedPlan;
  readonly provider: string;
  readonly servedBy: string;
  readonly instructionsIgnored: boolean;
  /** Length of the audio, when known (usage counts it on hits too). */
  readonly durationSeconds?: number;
}

export interface ResultCacheOptions {
  /** Sum of the cached files' sizes at most. */
  readonly maxBytes: number;
  /** How long an entry lives (the storage retention: the file is swept then). */
  readonly ttlMs: number;
}

/**
 * The index of the result cache: request key -> stored result, bounded by the bytes of the files
 * it points at and by age. The bytes themselves stay in the audio store.
 */
export class ResultCache {
  private readonly entries: LRUCache<string, CachedResult>;

  constructor(options: ResultCacheOptions) {
    this.entries = new LRUCache<string, CachedResult>({
      maxSize: options.maxBytes,
      sizeCalculation: (entry) => Math.max(1, entry.size),
      ttl: options.ttlMs,
    });
  }

  get(key: string): CachedResult | undefined {
    return this.entries.get(key);
  }

  set(key: string, result: CachedResult): void {
    this.entries.set(key, result);
  }

  /** Drops an entry whose file is gone (swept early, deleted by hand). */
  forget(key: string): void {
    this.entries.delete(key);
  }
}
