/**
 * The targets of issue 11 ("the fast path"), and issue 10's budget for a result-cache hit, each
 * checked against the figures of this run.
 * A target whose scenario did not run (no `/v1/audio/speech` route yet) is reported as skipped.
 */
import type { LoadResult } from './load';
import { SCENARIO_NAMES } from './scenarios';

/** One scenario at one concurrency: the direct call, the gateway call and what the gateway spent. */
export interface Measurement {
  readonly scenario: string;
  readonly connections: number;
  readonly direct: LoadResult;
  readonly gateway: LoadResult;
  /** The stand-in's (or bare server's) own CPU per direct request: this run's yardstick for the gateway's. */
  readonly directCpuMsPerRequest: number;
  readonly cpuMsPerRequest: number;
  /** The event loop's share of it. */
  readonly mainThreadCpuMsPerRequest: number;
  readonly writeBytesPerRequest: number;
  readonly rssBytes: number;
}

export interface StartupFigures {
  readonly firstAnswerMs: number;
  readonly rssBytes: number;
}

export interface TargetCheck {
  readonly label: string;
  /** undefined when the scenario was not measured. */
  readonly value: number | undefined;
  readonly shown: string;
  readonly limit: string;
  readonly holds: boolean | undefined;
}

export const addedP50 = (measured: Measurement): number => measured.gateway.p50Ms - measured.direct.p50Ms;
export const addedP99 = (measured: Measurement): number => measured.gateway.p99Ms - measured.direct.p99Ms;
export const share = (measured: Measurement): number => measured.gateway.requestsPerSecond / measured.direct.requestsPerSecond;

const MEGABYTE = 1024 * 1024;

export function checkTargets(measurements: readonly Measurement[], startup: StartupFigures, audioBytes: number): TargetCheck[] {
  const find = (scenario: string, connections: number) => measurements.find((entry) => entry.scenario === scenario && entry.connections === connections);
  const checks: TargetCheck[] = [];
  const check = (label: string, measured: Measurement | undefined, read: (entry: Measurement) => number, format: (value: number) => string, limit: string, holds: (value: number) => boolean): void => {
    const value = measured ? read(measured) : undefined;
    checks.push({ label, value, shown: value === undefined ? '-' : format(value), limit, holds: value === undefined ? undefined : holds(value) });
  };
  const ms = (value: number) => `${value.toFixed(2)} ms`;
  const ratio = (value: number) => value.toFixed(2);
  const bytes = (value: number) => `${value.toFixed(0)} B`;

  const syncC1 = find(SCENARIO_NAMES.ttsSync, 1);
  const syncC32 = find(SCENARIO_NAMES.ttsSync, 32);
  check('tts-sync pass-through: added p50 at c=1', syncC1, addedP50, ms, '<= 2 ms', (value) => value <= 2);
  check('tts-sync pass-through: share of direct req/s at c=32', syncC32, share, ratio, '>= 0.35', (value) => value >= 0.35);
  // Issue 10's budget for the result cache: a hit adds at most 1 ms (no provider call, a new link to the stored file).
  check('tts-sync cache hit: added p50 at c=1 (issue 10)', find(SCENARIO_NAMES.cacheHit, 1), addedP50, ms, '<= 1 ms', (value) => value <= 1);
  for (const name of [SCENARIO_NAMES.speechAudio, SCENARIO_NAMES.speechSse]) {
    check(`${name}: added p50 at c=1`, find(name, 1), addedP50, ms, '<= 0.5 ms', (value) => value <= 0.5);
    check(`${name}: share of direct req/s at c=32`, find(name, 32), share, ratio, '>= 0.5', (value) => value >= 0.5);
  }
  for (const connections of [1, 32]) {
    check(`CPU per tts-sync pass-through request at c=${connections}`, find(SCENARIO_NAMES.ttsSync, connections), (entry) => entry.cpuMsPerRequest, ms, '<= 1 ms', (value) => value <= 1);
    check(`CPU per /v1/audio/speech request at c=${connections}`, find(SCENARIO_NAMES.speechAudio, connections), (entry) => entry.cpuMsPerRequest, ms, '<= 1 ms', (value) => value <= 1);
  }
  check('keyed GET over a bare node server: added p50 at c=1', find(SCENARIO_NAMES.keyedGet, 1), addedP50, ms, '<= 0.15 ms', (value) => value <= 0.15);
  check('keyed GET over a bare node server: share at c=32', find(SCENARIO_NAMES.keyedGet, 32), share, ratio, '>= 0.3', (value) => value >= 0.3);
  for (const connections of [1, 32]) {
    // "0": below one byte a request, so a batched write of lastUsedAt now and then still counts as none.
    check(`disk written per keyed read at c=${connections}`, find(SCENARIO_NAMES.keyedGet, connections), (entry) => entry.writeBytesPerRequest, bytes, '0 (< 1 B)', (value) => value < 1);
    check(
      `disk written per tts-sync at c=${connections} (audio ${audioBytes} B)`,
      find(SCENARIO_NAMES.ttsSync, connections),
      (entry) => entry.writeBytesPerRequest,
      (value) => `${bytes(value)} = ${(value / audioBytes).toFixed(2)}x`,
      '<= 1.2x the audio',
      (value) => value <= 1.2 * audioBytes,
    );
  }
  checks.push({ label: 'start-up to first answer, zero config', value: startup.firstAnswerMs, shown: `${startup.firstAnswerMs.toFixed(0)} ms`, limit: '<= 1000 ms', holds: startup.firstAnswerMs <= 1000 });
  checks.push({ label: 'RSS after start, zero config', value: startup.rssBytes, shown: `${(startup.rssBytes / MEGABYTE).toFixed(0)} MB`, limit: '<= 120 MB', holds: startup.rssBytes <= 120 * MEGABYTE });
  return checks;
}
