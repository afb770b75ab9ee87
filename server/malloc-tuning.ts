/**
 * glibc malloc settings the gateway is started with (`npm start`, `npm run gateway`, the
 * benches). Audio buffers of a few hundred KB come and go by the thousand. With glibc's default,
 * each large buffer freed raises the mmap threshold (up to 32 MB), so later buffers land in the
 * per-thread arenas instead, and what a burst freed there stays with the process (measured: about
 * 190 MB still held 10 s after 32 concurrent streams). A fixed threshold keeps large buffers in
 * their own mappings, given back when freed; two arenas and a low trim threshold return the rest.
 * They must be in the environment when the process starts: glibc reads them once.
 */
export const MALLOC_TUNING: Readonly<Record<string, string>> = {
  MALLOC_ARENA_MAX: '2',
  MALLOC_MMAP_THRESHOLD_: '131072',
  MALLOC_TRIM_THRESHOLD_: '131072',
};

/** `env` with the tuning added; values the operator set are kept. */
export function withMallocTuning(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { ...MALLOC_TUNING, ...env };
}

/**
 * The settings missing from `env`, when this process runs on glibc (elsewhere they mean nothing).
 * glibc is asked about only when one is missing: the diagnostic report that tells costs 5 to 7 ms of start-up (measured).
 */
export function missingMallocTuning(env: NodeJS.ProcessEnv, onGlibc: () => boolean = runsOnGlibc): readonly string[] {
  const missing = Object.keys(MALLOC_TUNING).filter((name) => env[name] === undefined);
  return missing.length > 0 && onGlibc() ? missing : [];
}

function runsOnGlibc(): boolean {
  if (process.platform !== 'linux') return false;
  const header = (process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined)?.header;
  return typeof header?.glibcVersionRuntime === 'string';
}
