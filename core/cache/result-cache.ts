import { LRUCache } from 'lru-cache';
import type { SynthesisResult } from '../synthesis/synthesis-service';

/**
 * What the cache remembers of a finished synthesis: the result as it was first answered. Its
 * `fileName` is the stored file with the bytes, never handed to another account.
 */
export type CachedResult = Omit<SynthesisResult, 'cache'>;

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
