import type Redis from 'ioredis';
import { MemoryWindowCounters } from '../limits/memory-window-counters';
import type { BoundedAddition, BoundedAdditionResult, WindowCount, WindowCounters } from '../limits/window-counters';
import { OutageJournal, type JournalEntry } from './outage-journal';

/**
 * KEYS: the counters. ARGV, four per counter: points, window in ms, quota, the count a window
 * opens with. Adds every counter's points only if each stays within its quota; a window opens
 * with its key's first points, on top of its opening count.
 * Answers {added (1 or 0), count 1, ms left 1, count 2, ms left 2, ...}.
 */
const ADD_WITHIN_QUOTAS_SCRIPT = `
local counts, ttls, fits = {}, {}, 1
for i, key in ipairs(KEYS) do
  counts[i] = tonumber(redis.call('get', key) or ARGV[4 * i])
  ttls[i] = redis.call('pttl', key)
  -- A count found without an expiry (written by something else: a restore, a manual SET) gets
  -- one now, added to or not: a full count that never expired would refuse for good.
  if ttls[i] == -1 then
    redis.call('pexpire', key, ARGV[4 * i - 2])
    ttls[i] = tonumber(ARGV[4 * i - 2])
  end
  if counts[i] + tonumber(ARGV[4 * i - 3]) > tonumber(ARGV[4 * i - 1]) then fits = 0 end
end
if fits == 1 then
  for i, key in ipairs(KEYS) do
    if ttls[i] < 0 then
      counts[i] = counts[i] + tonumber(ARGV[4 * i - 3])
      redis.call('set', key, counts[i], 'PX', ARGV[4 * i - 2])
      ttls[i] = tonumber(ARGV[4 * i - 2])
    else
      counts[i] = redis.call('incrby', key, ARGV[4 * i - 3])
    end
  end
end
local answer = {fits}
for i = 1, #KEYS do
  answer[2 * i] = counts[i]
  answer[2 * i + 1] = math.max(ttls[i], 0)
end
return answer`;

/** Takes points back from an open window, never below zero; an ended window is left alone. */
const SUBTRACT_SCRIPT = `
if redis.call('exists', KEYS[1]) == 1 then
  local left = redis.call('decrby', KEYS[1], ARGV[1])
  if left < 0 then redis.call('incrby', KEYS[1], -left) end
end
return 0`;

/** Adds points to an open window only; one that is gone stays gone. */
const ADD_TO_OPEN_WINDOW_SCRIPT = `
if redis.call('exists', KEYS[1]) == 1 then redis.call('incrby', KEYS[1], ARGV[1]) end
return 0`;

/** Answers {count, ms left} of an open window, {0, 0} of none. */
const PEEK_SCRIPT = `
local count = redis.call('get', KEYS[1])
if not count then return {0, 0} end
return {tonumber(count), math.max(redis.call('pttl', KEYS[1]), 0)}`;

/** `add` has no quota of its own: its callers compare the count with theirs. */
const UNBOUNDED_QUOTA = Number.MAX_SAFE_INTEGER;

/**
 * WindowCounters in Redis, shared by every replica: each operation is one script, so an addition
 * within quotas is atomic across replicas. While Redis cannot be reached the counters fall back at
 * once to counters in this process's memory (the insurance), so requests are still served (each
 * replica then counts on its own), and use Redis again as soon as the connection is back, carrying
 * into it what was counted meanwhile (see OutageJournal). The client should fail commands fast
 * while disconnected (createRedisClient with queueWhileDisconnected: false); it logs the outage.
 * Keys are `<prefix>limits:<window seconds>:<key>` holding the count, expiring with the window,
 * as rate-limiter-flexible kept them before.
 */
export class RedisWindowCounters implements WindowCounters {
  private readonly insurance = new MemoryWindowCounters();
  private readonly journal = new OutageJournal();
  private readonly lostListeners: (() => void)[] = [];

  constructor(
    private readonly client: Redis,
    /** Prefix of every counter's key (config redis.keyPrefix). */
    private readonly keyPrefix: string,
  ) {
    client.on('ready', () => {
      for (const listener of this.lostListeners) listener();
      void this.carryOver();
    });
  }

  onCountsLost(listener: () => void): void {
    this.lostListeners.push(listener);
  }

  async add(key: string, points: number, windowSeconds: number): Promise<WindowCount> {
    const result = await this.addWithinQuotas([{ key, points, windowSeconds, quota: UNBOUNDED_QUOTA }]);
    return result.counts[0];
  }

  async addWithinQuotas(additions: readonly BoundedAddition[]): Promise<BoundedAdditionResult> {
    if (this.client.status !== 'ready') return this.addWhileAway(additions);
    try {
      const { added, counts } = await this.addInRedis(additions);
      // A refund goes to Redis, where these points were counted, even if Redis is away by then.
      return { added, counts, subtract: (key, points, windowSeconds) => this.refundInRedis(key, points, windowSeconds) };
    } catch (error) {
      // Redis answered with an error (out of memory): nothing was counted there.
      if (error instanceof Error && error.name === 'ReplyError') return this.insurance.addWithinQuotas(additions);
      return this.addWhileUnanswered(additions);
    }
  }

  async subtract(key: string, points: number, windowSeconds: number): Promise<void> {
    await this.withInsurance(
      () => this.subtractInRedis(key, points, windowSeconds),
      async () => {
        await this.insurance.subtract(key, points, windowSeconds);
        this.journal.takeBack(key, points, windowSeconds, this.journal.generation);
      },
    );
  }

  async peek(key: string, windowSeconds: number): Promise<WindowCount> {
    return this.withInsurance(
      async () => {
        const [count, msBeforeReset] = (await this.client.eval(PEEK_SCRIPT, 1, this.redisKey(key, windowSeconds))) as [number, number];
        return { count, msBeforeReset };
      },
      () => this.insurance.peek(key, windowSeconds),
    );
  }

  async reset(key: string, windowSeconds: number): Promise<void> {
    await this.withInsurance(
      async () => void (await this.client.del(this.redisKey(key, windowSeconds))),
      async () => {
        // Forgotten here: what was counted while away is not carried into Redis either.
        this.journal.forget(key, windowSeconds);
        await this.insurance.reset(key, windowSeconds);
      },
    );
  }

  private async addInRedis(additions: readonly BoundedAddition[]): Promise<{ added: boolean; counts: WindowCount[] }> {
    const keys = additions.map((addition) => this.redisKey(addition.key, addition.windowSeconds));
    const values = additions.flatMap((addition) => [addition.points, addition.windowSeconds * 1000, addition.quota, addition.openingCount ?? 0]);
    const answer = (await this.client.eval(ADD_WITHIN_QUOTAS_SCRIPT, keys.length, ...keys, ...values)) as number[];
    return { added: answer[0] === 1, counts: additions.map((_, index): WindowCount => ({ count: answer[2 * index + 1], msBeforeReset: answer[2 * index + 2] })) };
  }

  /**
   * Redis is away: counted in memory, and noted, to be added to Redis when it returns. A refund
   * before then takes the points back from both; after, from Redis, which has them by then.
   */
  private async addWhileAway(additions: readonly BoundedAddition[]): Promise<BoundedAdditionResult> {
    const result = await this.insurance.addWithinQuotas(additions);
    if (!result.added) return result;
    const generation = this.journal.generation;
    for (const addition of additions) this.journal.noteAddition(addition, Date.now());
    return {
      ...result,
      subtract: async (key, points, windowSeconds) => {
        await this.insurance.subtract(key, points, windowSeconds);
        if (!this.journal.takeBack(key, points, windowSeconds, generation)) await this.refundInRedis(key, points, windowSeconds);
      },
    };
  }

  /**
   * The script was sent but not answered in time (a Redis that stalls): Redis runs it when it
   * catches up, as it runs one connection's commands in order, so the points stay counted there
   * and are not noted to be added again. This replica decides meanwhile from its memory, and a
   * refund goes to both (sent after the script on the same connection, Redis runs it after it).
   */
  private async addWhileUnanswered(additions: readonly BoundedAddition[]): Promise<BoundedAdditionResult> {
    const result = await this.insurance.addWithinQuotas(additions);
    return {
      ...result,
      subtract: async (key, points, windowSeconds) => {
        await Promise.all([this.insurance.subtract(key, points, windowSeconds), this.refundInRedis(key, points, windowSeconds)]);
      },
    };
  }

  /** Takes back points counted in Redis; one that cannot be sent now is sent when Redis returns. */
  private async refundInRedis(key: string, points: number, windowSeconds: number): Promise<void> {
    if (this.client.status !== 'ready') {
      this.journal.noteRefund(key, points, windowSeconds, Date.now());
      return;
    }
    // Sent, unanswered: Redis runs it when it catches up.
    await this.subtractInRedis(key, points, windowSeconds).catch(() => undefined);
  }

  /**
   * Redis is back: what this replica counted and refunded meanwhile goes into the shared counters
   * (refunds first: they are of points Redis counted before, which a restarted Redis lost). A
   * window that Redis lost opens again with the points, as for a first request, unless it opens
   * from the database; one that ended here carries nothing. Entries that fail wait for the next return.
   */
  private async carryOver(): Promise<void> {
    if (this.journal.size === 0) return;
    const entries = this.journal.takeAll(Date.now());
    const failed: JournalEntry[] = [];
    await Promise.all(
      entries.map(async (entry) => {
        try {
          if (entry.refunded > 0) await this.subtractInRedis(entry.key, entry.refunded, entry.windowSeconds);
          entry.refunded = 0;
          if (entry.added === 0) return;
          // A window that opens from the database (a day's characters) and that Redis lost opens
          // again from it, and it holds the outage's requests already: added to only while open.
          if (entry.openingCount !== undefined) await this.client.eval(ADD_TO_OPEN_WINDOW_SCRIPT, 1, this.redisKey(entry.key, entry.windowSeconds), entry.added);
          else await this.addInRedis([{ key: entry.key, points: entry.added, windowSeconds: entry.windowSeconds, quota: UNBOUNDED_QUOTA }]);
        } catch {
          failed.push(entry);
        }
      }),
    );
    if (failed.length > 0) this.journal.putBack(failed, Date.now());
  }

  private async subtractInRedis(key: string, points: number, windowSeconds: number): Promise<void> {
    await this.client.eval(SUBTRACT_SCRIPT, 1, this.redisKey(key, windowSeconds), points);
  }

  /** Redis when connected and answering; else, at once, this process's memory. */
  private async withInsurance<Result>(inRedis: () => Promise<Result>, inMemory: () => Promise<Result>): Promise<Result> {
    if (this.client.status !== 'ready') return inMemory();
    try {
      return await inRedis();
    } catch {
      return inMemory();
    }
  }

  private redisKey(key: string, windowSeconds: number): string {
    return `${this.keyPrefix}limits:${windowSeconds}:${key}`;
  }
}
