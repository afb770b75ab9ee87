/**
 * What one process has spent, read from /proc (Linux): CPU time of all its threads, resident
 * memory, and bytes it caused to be written to storage. Deltas of two readings give the cost of
 * what happened between them.
 */
import { readFileSync } from 'node:fs';

/** Clock ticks per second of /proc/<pid>/stat times; 100 on every Linux the bench runs on. */
const CLOCK_TICKS_PER_SECOND = 100;

export interface ProcessReading {
  /** User plus system CPU time of all threads (worker threads, libuv's pool, GC), in milliseconds. */
  readonly cpuMs: number;
  /** The same for the main thread alone (the event loop). */
  readonly mainThreadCpuMs: number;
  /** Resident set size, in bytes. */
  readonly rssBytes: number;
  /** `write_bytes` of /proc/<pid>/io: bytes sent (or to be sent) to the storage layer. */
  readonly writeBytes: number;
}

/** utime + stime (fields 14 and 15) of a /proc stat file, in milliseconds. */
function cpuOf(statFile: string): number {
  // The command name (field 2) may hold spaces: fields are counted after its closing parenthesis.
  const stat = readFileSync(statFile, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
}

export function readProcess(pid: number): ProcessReading {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const rssKilobytes = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
  const io = readFileSync(`/proc/${pid}/io`, 'utf8');
  const writeBytes = Number(/write_bytes:\s+(\d+)/.exec(io)?.[1] ?? NaN);
  return { cpuMs: cpuOf(`/proc/${pid}/stat`), mainThreadCpuMs: cpuOf(`/proc/${pid}/task/${pid}/stat`), rssBytes: rssKilobytes * 1024, writeBytes };
}
