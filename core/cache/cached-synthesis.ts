import type { AudioFormat } from '../audio/audio-format';
import { redactSecrets } from '../http/upstream-error';
import { extended } from '../objects/extended';
import { TurnoverTable } from '../objects/turnover-table';
import type { Logger } from '../plugin/contract';
import type { CacheStatus, SynthesisContext, SynthesisResult, SynthesisStream } from '../synthesis/synthesis-service';
import type { SynthesisRequest } from '../synthesis/synthesis-request';
import { audioDurationSeconds } from '../synthesis/audio-duration';
import { closeBeforeStart, closeUnread } from '../synthesis/close-before-start';
import { closeStreamedLengths } from './closed-lengths';
import type { CachedResult } from './result-cache';
import type { ResultIndex, SharedFlight } from './result-index';
import type { ResultLookup } from './result-lookup';
import { resultCacheKey } from './result-cache-key';
import { boundedHitRead, type HitRead } from './hit-read';
import { SharedWait } from './shared-wait';
import { streamOf } from './stored-stream';

/** The audio store as the cache needs it. */
export interface CacheStorage {
  /**
   * A stored file's bytes; undefined only when the file is gone for good (the entry is then
   * dropped). A failure that may pass (the store unavailable, a read stopped by `signal`)
   * rejects, and the entry stays.
   */
  read(fileName: string, signal?: AbortSignal): Promise<Uint8Array | undefined>;
  /** `owner`: the account the new file counts against; `signal` stops the write. */
  save(audio: Uint8Array, format: AudioFormat, sampleRate?: number, owner?: string, signal?: AbortSignal): Promise<{ fileName: string; size: number }>;
  /**
   * A new name for a stored file's bytes, without copying them (the folder store links it), as
   * durable as a save; undefined when the file is gone, a rejection (as `read`) when it cannot
   * be had now. A storage without it gets read and saved.
   */
  share?(fileName: string, owner?: string, signal?: AbortSignal): Promise<{ fileName: string; size: number } | undefined>;
}

/** What the cache wraps: the synthesis service. */
export interface Synthesizer {
  synthesize(request: SynthesisRequest, context: SynthesisContext): Promise<SynthesisResult>;
  stream(request: SynthesisRequest, context: SynthesisContext): Promise<SynthesisStream>;
}

export interface CachedSynthesisOptions {
  /** A stream longer than this is not kept (whole files always are). */
  readonly maxStreamBytes: number;
  /** Single-flight across replicas (Redis); without it, identical requests share work within this process only. */
  readonly sharedFlight?: SharedFlight;
  /**
   * Whether a remembered answer still answers `request` (default: always). One refused is a miss,
   * and the new answer replaces it: a fallback target's answer, once the preferred one is back.
   */
  readonly answersStill?: (request: SynthesisRequest, remembered: RememberedFacts) => boolean;
  /** Told of each lookup: a hit answered from the cache, or a miss, whether or not the synthesis then succeeds. */
  readonly lookedUp?: (hit: boolean) => void;
  /**
   * How long a hit's stored bytes may take to read (or to get a new name), for a small file; a
   * larger one gets a second more per MiB. Past it, as on a failure of the store, the hit is a
   * miss for that request and the entry stays. Absent: as long as the client waits.
   */
  readonly hitReadTimeoutMs?: number;
  /**
   * A request's own deadline (`synthesis.timeout`), counted from its arrival: it waits no longer
   * for an identical synthesis under way (see SharedWait). Absent: as long as that one runs.
   */
  readonly timeoutMs?: number;
}

/** What is known of a remembered answer besides its file. */
export type RememberedFacts = Omit<CachedResult, 'fileName' | 'size'>;

/** How many identical syntheses under way one request waits for, one after the other, before it makes its own. */
const MOST_SHARED_ROUNDS = 2;

/**
 * Synthesis behind the result cache (unless the context says `useCache: false`). A hit calls no provider: a file answer is the
 * stored bytes under the requester's own new name (no account learns another's link), a stream
 * answer streams the stored bytes. Identical concurrent file requests share one synthesis (across
 * replicas too, given a shared index and flight).
 */
export class CachedSynthesis {
  /** Undefined: another replica made it. */
  private readonly inFlight = new TurnoverTable<Promise<SynthesisResult | undefined>>();

  constructor(
    private readonly synthesizer: Synthesizer,
    private readonly cache: ResultIndex,
    private readonly storage: CacheStorage,
    private readonly logger: Logger,
    private readonly options: CachedSynthesisOptions,
  ) {}

  /** Starts the lookup `synthesize` or `stream` will make for `request`, to pass them in its context. */
  lookUp(request: SynthesisRequest): ResultLookup {
    const key = resultCacheKey(request);
    let found: Promise<CachedResult | undefined>;
    try {
      found = Promise.resolve(this.cache.get(key));
    } catch (error) {
      found = Promise.reject(error);
    }
    // Read by the synthesis call, which reports a failure; a request refused meanwhile never reads it.
    found.catch(() => undefined);
    return { key, found };
  }

  async synthesize(request: SynthesisRequest, context: SynthesisContext): Promise<SynthesisResult & { cache: CacheStatus }> {
    if (context.useCache === false) return extended(await this.synthesizer.synthesize(request, context), { cache: 'bypass' as const });
    return this.counted(this.synthesizeThroughCache(request, context));
  }

  /** Reports the lookup of an answer once it is known: a hit, or a miss (a failed synthesis too). */
  private async counted<T extends { cache: CacheStatus }>(answer: Promise<T>): Promise<T> {
    let hit = false;
    try {
      const result = await answer;
      hit = result.cache === 'hit';
      return result;
    } finally {
      this.options.lookedUp?.(hit);
    }
  }

  private async synthesizeThroughCache(request: SynthesisRequest, context: SynthesisContext): Promise<SynthesisResult & { cache: CacheStatus }> {
    const key = resultCacheKey(request);
    const wait = new SharedWait(context.signal, this.options.timeoutMs);
    const hit = await this.hitFrom(key, this.stillAnswering(request, await this.lookupOf(key, context)), context);
    if (hit) return hit;
    // Identical requests under way are waited for: when one fails, the first of those that waited
    // to find no answer starts again, and the others wait for that one rather than each calling
    // the provider at once (after a second failure, each makes its own).
    for (let round = 0, running = this.inFlight.get(key); running && round < MOST_SHARED_ROUNDS; round += 1, running = this.inFlight.get(key)) {
      await wait.forOther(running);
      const shared = await this.rereadHit(key, context);
      if (shared) return shared;
    }
    if (this.options.sharedFlight) wait.startsAfterLock();
    // Shared by every identical request that arrives meanwhile, so no single client's leaving
    // stops it once it runs (its wait for another replica's lock is its starter's: see synthesizeOnce).
    const synthesis = this.synthesizeOnce(key, request, context, wait);
    this.listUnderWay(key, synthesis);
    const result = await wait.forOwn(synthesis);
    if (result) return extended(result, { cache: 'miss' as const });
    // Another replica made it meanwhile, or its holder failed (or the file is gone already): this
    // one makes it, under the lock again, so that the replicas that waited make one call, not one
    // each; within its own deadline, as the first try.
    const made = await this.rereadHit(key, context);
    if (made) return made;
    const retried = await wait.forOwn(this.synthesizeOnce(key, request, context, wait));
    if (retried) return extended(retried, { cache: 'miss' as const });
    return (await this.rereadHit(key, context)) ?? extended(await wait.forOwn(this.synthesizeAndRemember(key, request, context)), { cache: 'miss' as const });
  }

  /**
   * Synthesizes and remembers; with a shared flight only one replica at a time does, and
   * undefined means another one did. The wait for another replica's lock stops at the limits of
   * `wait`'s request (identical requests of this process that waited for it then go on by
   * themselves, under the lock again; a lock taken after is given back at once).
   */
  private async synthesizeOnce(key: string, request: SynthesisRequest, context: SynthesisContext, wait: SharedWait): Promise<SynthesisResult | undefined> {
    const flight = this.options.sharedFlight;
    if (!flight) return this.synthesizeAndRemember(key, request, context);
    const release = await wait.forLock((signal) => flight.acquire(key, signal));
    if (!release) return undefined;
    try {
      // The previous holder may have finished just before this one took the lock (a remembered
      // answer that no longer answers does not count: it is what this synthesis replaces).
      if (this.stillAnswering(request, await this.cache.get(key))) return undefined;
      return await this.synthesizeAndRemember(key, request, context);
    } finally {
      await release();
    }
  }

  private async synthesizeAndRemember(key: string, request: SynthesisRequest, context: SynthesisContext): Promise<SynthesisResult> {
    const result = await this.synthesizer.synthesize(request, { requestId: context.requestId, accountId: context.accountId });
    await this.cache.set(key, toCached(result));
    return result;
  }

  async stream(request: SynthesisRequest, context: SynthesisContext): Promise<SynthesisStream & { cache: CacheStatus }> {
    if (context.useCache === false) return extended(await this.synthesizer.stream(request, context), { cache: 'bypass' as const });
    return this.counted(this.streamThroughCache(request, context));
  }

  private async streamThroughCache(request: SynthesisRequest, context: SynthesisContext): Promise<SynthesisStream & { cache: CacheStatus }> {
    const key = resultCacheKey(request);
    const running = this.inFlight.get(key);
    // A lookup started before an identical synthesis ended may have missed what it stored.
    if (running) await new SharedWait(context.signal, this.options.timeoutMs).forOther(running);
    // One just made by an identical request answers as it is; one remembered from before is checked.
    const cached = running ? await this.cache.get(key) : this.stillAnswering(request, await this.lookupOf(key, context));
    const bytes = cached && (await this.readHit(key, cached, context));
    if (cached && bytes) return Object.assign(describe(cached), streamOf(bytes, cached.format, cached.sampleRate, cached.durationSeconds), { cache: 'hit' as const });
    const live = await this.synthesizer.stream(request, context);
    return extended(live, { chunks: closeBeforeStart(this.remembering(key, live, context.requestId), () => closeUnread(live.chunks)), cache: 'miss' as const });
  }

  /** What a lookup found, unless it no longer answers the request (then a miss). */
  private stillAnswering(request: SynthesisRequest, found: CachedResult | undefined): CachedResult | undefined {
    return found && this.options.answersStill && !this.options.answersStill(request, found) ? undefined : found;
  }

  /** The lookup started ahead when it was for this key, else a new one. */
  private lookupOf(key: string, context: SynthesisContext): CachedResult | undefined | Promise<CachedResult | undefined> {
    const ahead = context.resultLookup;
    return ahead && ahead.key === key ? ahead.found : this.cache.get(key);
  }

  /** A hit read from the cache now (an identical synthesis may have just stored it), under a new name for this requester alone. */
  private async rereadHit(key: string, context: SynthesisContext): Promise<(SynthesisResult & { cache: CacheStatus }) | undefined> {
    return this.hitFrom(key, await this.cache.get(key), context);
  }

  /** A hit from what a lookup found, under a new name for this requester alone; undefined: a miss. */
  private async hitFrom(key: string, cached: CachedResult | undefined, context: SynthesisContext): Promise<(SynthesisResult & { cache: CacheStatus }) | undefined> {
    if (!cached) return undefined;
    const saved = await this.readWithinLimits(key, cached, context, (signal) => this.newNameOf(cached, context.accountId, signal));
    return saved && Object.assign(describe(cached), saved, { cache: 'hit' as const });
  }

  /** The hit's bytes under a new name: shared where the storage can, else read and saved again (undefined: the file is gone). */
  private async newNameOf(cached: CachedResult, owner: string | undefined, signal: AbortSignal): Promise<{ fileName: string; size: number } | undefined> {
    if (this.storage.share) return this.storage.share(cached.fileName, owner, signal);
    const bytes = await this.storage.read(cached.fileName, signal);
    return bytes && this.storage.save(bytes, cached.format, cached.sampleRate, owner, signal);
  }

  /** A stream hit's bytes; undefined: a miss. */
  private readHit(key: string, cached: CachedResult, context: SynthesisContext): Promise<Uint8Array | undefined> {
    return this.readWithinLimits(key, cached, context, (signal) => this.storage.read(cached.fileName, signal));
  }

  /**
   * Runs a hit's read within its limits (see boundedHitRead) and answers its value, or undefined
   * for a miss: a file gone for good drops the entry; a store that failed or stalled leaves it
   * for the next request (S3's SlowDown passes; a 404 does not).
   */
  private async readWithinLimits<Value>(key: string, cached: CachedResult, context: SynthesisContext, read: (signal: AbortSignal) => Promise<Value | undefined>): Promise<Value | undefined> {
    const answer: HitRead<Value> = await boundedHitRead(read, { clientSignal: context.signal, timeoutMs: this.options.hitReadTimeoutMs, size: cached.size });
    if (answer.outcome === 'read') return answer.value;
    if (answer.outcome === 'gone') await this.cache.forget(key);
    else this.logger.warn('a result-cache hit could not be read: answered as a miss, the entry kept', { requestId: context.requestId, reason: answer.reason });
    return undefined;
  }

  /** Hands the stream on and, when it ends whole and short enough, stores and remembers it. */
  private async *remembering(key: string, live: SynthesisStream, requestId: string): AsyncGenerator<Uint8Array> {
    const pieces: Uint8Array[] = [];
    let kept = 0;
    for await (const piece of live.chunks) {
      if (kept <= this.options.maxStreamBytes) {
        pieces.push(piece);
        kept += piece.byteLength;
      }
      yield piece;
    }
    if (kept > this.options.maxStreamBytes) return;
    // Saved after the client's answer has ended, not before: no one is given this file. An
    // identical request meanwhile waits for it, as for a synthesis under way.
    this.listUnderWay(key, this.remember(key, live, pieces, requestId));
  }

  /**
   * Lists `work` as the key's synthesis under way, for identical requests to wait for, until it
   * ends. It is unlisted then only if still listed: a newer identical one may have taken its
   * place (each request makes its own after two failed rounds), and a request that arrives
   * meanwhile must wait for that one, not call the provider alongside it.
   */
  private listUnderWay(key: string, work: Promise<SynthesisResult | undefined>): void {
    this.inFlight.set(key, work);
    const unlist = (): void => {
      if (this.inFlight.get(key) === work) this.inFlight.delete(key);
    };
    void work.then(unlist, unlist);
  }

  /** Stores a finished stream and remembers it; a failure is logged, never thrown. */
  private async remember(key: string, live: SynthesisStream, pieces: readonly Uint8Array[], requestId: string): Promise<undefined> {
    try {
      const audio = Buffer.concat(pieces);
      closeStreamedLengths(audio, live.format, live.progress.durationSeconds);
      const saved = await this.storage.save(audio, live.format, live.progress.sampleRate);
      // The seconds are known at the end only (the encoder's count, else the bytes' headers, as for a file).
      const durationSeconds = live.progress.durationSeconds ?? audioDurationSeconds(audio, live.format, live.progress.sampleRate);
      await this.cache.set(key, Object.assign(describe(live), saved, { sampleRate: live.progress.sampleRate, durationSeconds }));
    } catch (error) {
      this.logger.warn('a streamed result was not cached', { requestId, errorMessage: redactSecrets(error instanceof Error ? error.message : String(error)) });
    }
    return undefined;
  }
}

function describe(result: Omit<CachedResult, 'fileName' | 'size'>): Omit<CachedResult, 'fileName' | 'size'> {
  const { format, sampleRate, applied, provider, servedBy, instructionsIgnored, durationSeconds } = result;
  return { format, ...(sampleRate !== undefined ? { sampleRate } : {}), applied, provider, servedBy, instructionsIgnored, ...(durationSeconds !== undefined ? { durationSeconds } : {}) };
}

function toCached(result: SynthesisResult): CachedResult {
  return Object.assign(describe(result), { fileName: result.fileName, size: result.size });
}
