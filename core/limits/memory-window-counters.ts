import type { BoundedAddition, BoundedAdditionResult, WindowCount, WindowCounters } from './window-counters';

/** One key's open window. */
interface OpenWindow {
  count: number;
  readonly endsAt: number;
}

export interface MemoryWindowCountersOptions {
  readonly now?: () => number;
  /** How often windows that have ended are let go of (they are ignored from the moment they end). */
  readonly sweepIntervalMs?: number;
}

const NO_WINDOW: WindowCount = { count: 0, msBeforeReset: 0 };
const DEFAULT_SWEEP_INTERVAL_MS = 60_000;

/**
 * WindowCounters in this process's memory. Every operation is synchronous underneath, so an
 * addition within quotas is one step by construction: nothing else runs between its check and
 * its additions.
 */
export class MemoryWindowCounters implements WindowCounters {
  private readonly windows = new Map<string, OpenWindow>();
  private readonly now: () => number;
  private readonly sweepIntervalMs: number;
  private sweeper?: NodeJS.Timeout;

  constructor(options: MemoryWindowCountersOptions = {}) {
    this.now = options.now ?? Date.now;
    this.sweepIntervalMs = options.sweepIntervalMs ?? DEFAULT_SWEEP_INTERVAL_MS;
  }

  async add(key: string, points: number, windowSeconds: number): Promise<WindowCount> {
    return this.addNow(key, points, windowSeconds);
  }

  async addWithinQuotas(additions: readonly BoundedAddition[]): Promise<BoundedAdditionResult> {
    const before = additions.map((addition) => this.countNow(addition.key, addition.windowSeconds, addition.openingCount));
    const added = additions.every((addition, index) => before[index].count + addition.points <= addition.quota);
    const counts = added ? additions.map((addition) => this.addNow(addition.key, addition.points, addition.windowSeconds, addition.openingCount)) : before;
    return { added, counts, subtract: (key, points, windowSeconds) => this.subtract(key, points, windowSeconds) };
  }

  async subtract(key: string, points: number, windowSeconds: number): Promise<void> {
    const window = this.openWindow(key, windowSeconds);
    if (window) window.count = Math.max(0, window.count - points);
  }

  async peek(key: string, windowSeconds: number): Promise<WindowCount> {
    return this.countNow(key, windowSeconds);
  }

  async reset(key: string, windowSeconds: number): Promise<void> {
    this.windows.delete(windowId(key, windowSeconds));
  }

  private addNow(key: string, points: number, windowSeconds: number, openingCount = 0): WindowCount {
    const now = this.now();
    let window = this.openWindow(key, windowSeconds, now);
    if (!window) {
      window = { count: openingCount, endsAt: now + windowSeconds * 1000 };
      this.windows.set(windowId(key, windowSeconds), window);
      this.sweepLater();
    }
    window.count += points;
    return { count: window.count, msBeforeReset: window.endsAt - now };
  }

  /** The open window's count, or the count a window would open with (`openingCount`) and no time left. */
  private countNow(key: string, windowSeconds: number, openingCount = 0): WindowCount {
    const now = this.now();
    const window = this.openWindow(key, windowSeconds, now);
    if (window) return { count: window.count, msBeforeReset: window.endsAt - now };
    return openingCount === 0 ? NO_WINDOW : { count: openingCount, msBeforeReset: 0 };
  }

  /** The key's window while it is open; an ended one is gone. */
  private openWindow(key: string, windowSeconds: number, now = this.now()): OpenWindow | undefined {
    const id = windowId(key, windowSeconds);
    const window = this.windows.get(id);
    if (window && window.endsAt <= now) {
      this.windows.delete(id);
      return undefined;
    }
    return window;
  }

  /** One timer while any window is open, so that keys seen once (a login guesser's) do not stay. */
  private sweepLater(): void {
    if (this.sweeper) return;
    this.sweeper = setInterval(() => {
      const now = this.now();
      for (const [id, window] of this.windows) if (window.endsAt <= now) this.windows.delete(id);
      if (this.windows.size === 0) {
        clearInterval(this.sweeper);
        this.sweeper = undefined;
      }
    }, this.sweepIntervalMs);
    this.sweeper.unref();
  }
}

/** Windows of different lengths are different counters, as they are in Redis. */
function windowId(key: string, windowSeconds: number): string {
  return `${windowSeconds}:${key}`;
}
