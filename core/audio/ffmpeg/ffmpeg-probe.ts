import { spawnSync } from 'node:child_process';
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
/** Long enough for a cold start on a loaded machine; a binary that hangs counts as missing. */
const PROBE_TIMEOUT_MS = 10_000;

/** Runs `ffmpeg -version` once per path (then answers from the cache). */
export function probeFfmpeg(options?: CodecOptions): FfmpegProbe {
  const path = ffmpegPathOf(options);
  const cached = probes.get(path);
  if (cached) return cached;
  const probe = runProbe(path);
  probes.set(path, probe);
  return probe;
}

/** True when AAC can be encoded and decoded (through ffmpeg). */
export function aacAvailable(options?: CodecOptions): boolean {
  return probeFfmpeg(options).available;
}

function runProbe(path: string): FfmpegProbe {
  const result = spawnSync(path, ['-hide_banner', '-version'], { timeout: PROBE_TIMEOUT_MS, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (result.error) {
    const code = (result.error as NodeJS.ErrnoException).code;
    return { path, available: false, problem: code === 'ENOENT' ? `${path} was not found` : `${path} could not run (${code ?? result.error.message})` };
  }
  const firstLine = result.stdout.split('\n', 1)[0].trim();
  if (result.status !== 0 || !firstLine.startsWith('ffmpeg version')) {
    return { path, available: false, problem: `${path} -version did not answer like ffmpeg (exit ${result.status})` };
  }
  return { path, available: true, version: firstLine };
}
