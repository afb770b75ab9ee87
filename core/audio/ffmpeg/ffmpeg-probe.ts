import { execFile, spawnSync } from 'node:child_process';
import { ffmpegPathOf, type CodecOptions } from '../codec-options';

/** Whether an ffmpeg binary runs, as found once per path and thread. */
export interface FfmpegProbe {
  readonly path: string;
  readonly available: boolean;
  /** The first line of `ffmpeg -version`, when it ran. */
  readonly version?: string;
  /** Why it is unavailable (not found, failed to run), for logs and capabilities. */
  readonly problem?: string;
}

const probes = new Map<string, FfmpegProbe>();
const probesUnderWay = new Map<string, Promise<FfmpegProbe>>();
const PROBE_ARGUMENTS = ['-hide_banner', '-version'];
/** Long enough for a cold start on a loaded machine; a binary that hangs counts as missing. */
const PROBE_TIMEOUT_MS = 10_000;

/** Runs `ffmpeg -version` once per path (then answers from the cache), waiting for it. */
export function probeFfmpeg(options?: CodecOptions): FfmpegProbe {
  const path = ffmpegPathOf(options);
  const cached = probes.get(path);
  if (cached) return cached;
  const result = spawnSync(path, PROBE_ARGUMENTS, { timeout: PROBE_TIMEOUT_MS, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const failure = result.error as NodeJS.ErrnoException | undefined;
  return remember(verdict(path, { failureCode: failure?.code ?? failure?.message, status: result.status, stdout: result.stdout }));
}

/**
 * The same probe without holding the event loop, for a server: ffmpeg takes 60 ms to start on
 * a quiet 2-core machine and half a second on a busy one, and every request would wait that
 * long behind a synchronous probe. Shares the cache (and one process per path) with `probeFfmpeg`; never rejects.
 */
export function probeFfmpegInBackground(options?: CodecOptions): Promise<FfmpegProbe> {
  const path = ffmpegPathOf(options);
  const cached = probes.get(path);
  if (cached) return Promise.resolve(cached);
  let underWay = probesUnderWay.get(path);
  if (!underWay) {
    underWay = new Promise<FfmpegProbe>((resolve) => {
      execFile(path, PROBE_ARGUMENTS, { timeout: PROBE_TIMEOUT_MS, encoding: 'utf8' }, (error, stdout) => {
        // execFile reports a non-zero exit as an error whose code is the exit status.
        const code = (error as NodeJS.ErrnoException | null)?.code as string | number | undefined;
        const failureCode = error === null ? undefined : typeof code === 'string' ? code : error.killed ? 'timed out' : undefined;
        const status = error === null ? 0 : typeof code === 'number' ? code : null;
        resolve(remember(verdict(path, { failureCode, status, stdout })));
      });
    });
    probesUnderWay.set(path, underWay);
  }
  return underWay;
}

/** What is known already of the binary at `options`' path, without running anything. */
export function knownFfmpegProbe(options?: CodecOptions): FfmpegProbe | undefined {
  return probes.get(ffmpegPathOf(options));
}

/** Takes another thread's probe as this thread's own, so that this one runs none (a new worker). */
export function adoptFfmpegProbe(probe: FfmpegProbe): void {
  remember(probe);
}

/** True when AAC can be encoded and decoded (through ffmpeg). */
export function aacAvailable(options?: CodecOptions): boolean {
  return probeFfmpeg(options).available;
}

/** The first answer found for a path stays: a later probe of the same binary says the same. */
function remember(probe: FfmpegProbe): FfmpegProbe {
  probesUnderWay.delete(probe.path);
  const first = probes.get(probe.path) ?? probe;
  probes.set(probe.path, first);
  return first;
}

interface ProbeRun {
  /** Why the process could not run (ENOENT, a timeout), when it could not. */
  readonly failureCode?: string;
  readonly status: number | null;
  readonly stdout: string;
}

function verdict(path: string, run: ProbeRun): FfmpegProbe {
  if (run.failureCode !== undefined) {
    return { path, available: false, problem: run.failureCode === 'ENOENT' ? `${path} was not found` : `${path} could not run (${run.failureCode})` };
  }
  const firstLine = run.stdout.split('\n', 1)[0].trim();
  if (run.status !== 0 || !firstLine.startsWith('ffmpeg version')) {
    return { path, available: false, problem: `${path} -version did not answer like ffmpeg (exit ${run.status})` };
  }
  return { path, available: true, version: firstLine };
}
