/** The work of one task, for the pool's wait estimates: `units` of some measure (characters, bytes) of one `kind`. */
export interface TaskCost {
  readonly kind: string;
  readonly units: number;
}

/** Weight of the newest measurement: recent enough to follow the load, smooth enough to ignore one outlier. */
const SMOOTHING = 0.3;
const UNCOSTED: TaskCost = { kind: '(task)', units: 1 };

/**
 * How long tasks take, learned per kind as milliseconds per unit of work (a moving average of
 * measured run times, so it follows the machine and its load). Before a kind is measured its
 * starting guess is used, if the pool was given one (the first measurement replaces it);
 * otherwise the estimate is 0 (optimistic).
 */
export class WorkRates {
  private readonly measured = new Map<string, number>();

  constructor(private readonly initialMsPerUnit: Readonly<Record<string, number>> = {}) {}

  expectedMs(cost: TaskCost | undefined): number {
    const { kind, units } = cost ?? UNCOSTED;
    return (this.measured.get(kind) ?? this.initialMsPerUnit[kind] ?? 0) * Math.max(0, units);
  }

  record(cost: TaskCost | undefined, elapsedMs: number): void {
    const { kind, units } = cost ?? UNCOSTED;
    if (!(units > 0) || !(elapsedMs >= 0)) return;
    const rate = elapsedMs / units;
    const known = this.measured.get(kind);
    this.measured.set(kind, known === undefined ? rate : known + SMOOTHING * (rate - known));
  }
}

/**
 * Feeds a finished task's run time to the rates, except for the first task of its kind on a
 * worker (`kindsRun`: the kinds that worker has run): that one also paid the worker's start-up
 * (a codec compiled, an engine loaded), which would make every later estimate too long.
 * `elapsedMs` is absent for a task that tells nothing of its work (it was cancelled).
 */
export function learnFromRun(rates: WorkRates, kindsRun: Set<string>, cost: TaskCost | undefined, elapsedMs: number | undefined): void {
  const kind = cost?.kind ?? '';
  const firstOfKind = !kindsRun.has(kind);
  kindsRun.add(kind);
  if (!firstOfKind && elapsedMs !== undefined) rates.record(cost, elapsedMs);
}
