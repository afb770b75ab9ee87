import type { ProviderStatus } from '../../core';
import { describeFailure } from './check-failure';

/** What GET /health/ready asks; each probe throws when its part is not usable. */
export interface ReadinessProbes {
  database(): Promise<void>;
  audioStore(): Promise<void>;
  providers(): readonly ProviderStatus[];
  /** True once a stop began: load balancers should send nothing new. */
  stopping(): boolean;
  /** True while providers still warm up (an engine loading): the gateway answers, but is not ready yet. */
  warmingUp(): boolean;
}

export interface CheckResult {
  readonly status: 'ok' | 'failed';
  readonly error?: string;
}

export interface ReadinessReport {
  readonly status: 'ready' | 'not ready';
  readonly checks: { readonly database: CheckResult; readonly audioStore: CheckResult; readonly startup: CheckResult; readonly shutdown: CheckResult };
  readonly providers: readonly ProviderStatus[];
}

/**
 * The Retry-After of a 503: a check is made afresh at each request, so this is when asking again
 * is worth it. More than the probe's own limit (a hung check answers in 2 s), and about the period
 * balancers poll at; a replica that stops never becomes ready again, which no value can say.
 */
export const READINESS_RETRY_AFTER_SECONDS = 5;

/** A probe that has not answered in this time has failed (a hung network mount, a locked database). */
const PROBE_TIMEOUT_MS = 2_000;

/** A failed probe; `check` is set when the check itself failed (not this request's time limit). */
type ProbeResult = CheckResult & { cause?: unknown; check?: Promise<void> };

async function runProbe(probe: () => Promise<void>): Promise<ProbeResult> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = Object.assign(new Error('probe timed out'), { code: 'TIMEOUT' });
  const timeout = new Promise<never>((resolve, reject) => {
    timer = setTimeout(() => reject(timedOut), PROBE_TIMEOUT_MS);
  });
  let check: Promise<void> | undefined;
  try {
    check = probe();
    await Promise.race([check, timeout]);
    return { status: 'ok' };
  } catch (error) {
    return { status: 'failed', error: describeFailure(error), cause: error, check: error === timedOut ? undefined : check };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Checks whose failure is already logged. Requests that joined one pending check each answer
 * 503, but it is one failure: several balancers polling an outage would otherwise write a line
 * each. Weak, so a check is forgotten with the last request that held it.
 */
const loggedChecks = new WeakSet<Promise<void>>();

function firstToLog(check: Promise<void> | undefined): boolean {
  if (check === undefined) return true;
  if (loggedChecks.has(check)) return false;
  loggedChecks.add(check);
  return true;
}

/**
 * One check at a time per part: a readiness request that comes while the last one's check is
 * still pending waits on that check instead of starting another. A check that hangs (a network
 * mount, a database that stopped answering) holds what it started, on a folder a thread of
 * libuv's pool of four that DNS lookups and password hashing share; a probe every few seconds
 * would otherwise pile them up until the whole gateway waits.
 */
export function joinPendingChecks(probes: ReadinessProbes): ReadinessProbes {
  return { ...probes, database: joinWhilePending(() => probes.database()), audioStore: joinWhilePending(() => probes.audioStore()) };
}

function joinWhilePending(check: () => Promise<void>): () => Promise<void> {
  let pending: Promise<void> | undefined;
  return () => {
    if (pending) return pending;
    const started = (async () => check())();
    pending = started;
    const clear = (): void => {
      if (pending === started) pending = undefined;
    };
    started.then(clear, clear);
    return started;
  };
}

/**
 * Ready when the database answers, the audio folder takes a file, the providers' warm-ups are
 * over, at least one provider is ready and no stop has begun. One provider down leaves the gateway ready: the others serve.
 */
export async function checkReadiness(probes: ReadinessProbes, onFailure: (check: string, error: string, cause: unknown) => void): Promise<ReadinessReport> {
  const [database, audioStore] = await Promise.all([runProbe(() => probes.database()), runProbe(() => probes.audioStore())]);
  for (const [name, result] of [['database', database], ['audioStore', audioStore]] as const) {
    if (result.status === 'failed' && firstToLog(result.check)) onFailure(name, result.error ?? 'failed', result.cause);
  }
  const providers = probes.providers();
  const stopping = probes.stopping();
  const warmingUp = probes.warmingUp();
  const startup: CheckResult = warmingUp ? { status: 'failed', error: 'warming up' } : { status: 'ok' };
  const shutdown: CheckResult = stopping ? { status: 'failed', error: 'stopping' } : { status: 'ok' };
  const ready = database.status === 'ok' && audioStore.status === 'ok' && !warmingUp && !stopping && providers.some((provider) => provider.status === 'ready');
  const plain = ({ status, error }: CheckResult): CheckResult => (error === undefined ? { status } : { status, error });
  return { status: ready ? 'ready' : 'not ready', checks: { database: plain(database), audioStore: plain(audioStore), startup, shutdown }, providers };
}
