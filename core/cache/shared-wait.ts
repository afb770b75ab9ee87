import { abortedByDeadline, LinkedAbort } from '../abort/linked-abort';
import { raceAbort } from '../abort/race-abort';
import { explainFailure } from '../synthesis/explain-failure';

/**
 * One request's own limits while it waits for a synthesis shared with identical requests: its
 * client leaving (its signal) and its own deadline, `synthesis.timeout` counted from its arrival
 * as the synthesis service counts it. The shared synthesis has only its starter's deadline, so a
 * request that came later, or waited for one that failed first, would otherwise wait past its
 * own. Past either limit this request stops waiting (with its signal's reason, or a 504
 * `TTS_ERR_TIMEOUT`); the synthesis goes on for the others and is remembered for later requests.
 * The same limits bound its wait for another replica's single-flight lock (`forLock`).
 */
export class SharedWait {
  private readonly deadline: number | undefined;
  /** Set once this request has waited for another's synthesis: one it then makes itself started late. */
  private waited = false;

  constructor(
    private readonly signal: AbortSignal | undefined,
    private readonly timeoutMs: number | undefined,
  ) {
    this.deadline = timeoutMs === undefined ? undefined : Date.now() + timeoutMs;
  }

  /** The synthesis this request makes may start late: it waits first for a lock another replica may hold (`forLock`). */
  startsAfterLock(): void {
    this.waited = true;
  }

  /** Waits for another request's synthesis to end, whatever its outcome, within this request's limits. */
  forOther(running: Promise<unknown>): Promise<void> {
    this.waited = true;
    const ended = running.then(
      () => undefined,
      () => undefined,
    );
    return this.within(ended, this.signal);
  }

  /**
   * Takes the key's lock across replicas (SharedFlight.acquire, given a signal for this request's
   * limits), which another replica may hold: past either limit this request stops waiting for it.
   */
  forLock<Value>(acquire: (signal: AbortSignal | undefined) => Promise<Value>): Promise<Value> {
    return this.bounded(this.signal, acquire);
  }

  /**
   * The answer of a synthesis this request started. Its deadline, counted from when it started,
   * ends after this request's own when this request first waited for another (or may wait for
   * another replica's lock, see `startsAfterLock`): then it is answered by this request's
   * deadline. A client leaving does not stop it once it runs (no cancel for the request that made
   * the call, as without the cache).
   */
  forOwn<Value>(synthesis: Promise<Value>): Promise<Value> {
    return this.waited ? this.within(synthesis, undefined) : synthesis;
  }

  private within<Value>(work: Promise<Value>, signal: AbortSignal | undefined): Promise<Value> {
    return this.bounded(signal, (limits) => (limits ? raceAbort(work, limits, () => limits.reason) : work));
  }

  /**
   * Runs `run` with a signal for this request's limits: `signal` and, when it has one, its deadline
   * (a timer only while waiting: most requests never wait for another). Past the deadline, the
   * failure is this request's 504.
   */
  private async bounded<Value>(signal: AbortSignal | undefined, run: (limits: AbortSignal | undefined) => Promise<Value>): Promise<Value> {
    if (this.deadline === undefined) return run(signal);
    const bound = new LinkedAbort([signal], Math.max(0, this.deadline - Date.now()));
    try {
      return await run(bound.signal);
    } catch (error) {
      throw bound.signal.aborted ? this.reasonOf(bound.signal) : error;
    } finally {
      bound.dispose();
    }
  }

  private reasonOf(stopped: AbortSignal): unknown {
    if (!abortedByDeadline(stopped)) return stopped.reason;
    return explainFailure(stopped.reason, this.signal, true, this.timeoutMs ?? 0);
  }
}
