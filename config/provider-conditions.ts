import { isSet, type Environment } from './interpolate';

/**
 * `ifEnv` lets one config enable every provider from environment variables: an entry whose
 * variables are not all set is skipped (and reported) instead of stopping the start.
 */

export function ifEnvNames(ifEnv: unknown): string[] {
  if (typeof ifEnv === 'string') return [ifEnv];
  if (Array.isArray(ifEnv)) return ifEnv.filter((name): name is string => typeof name === 'string');
  return [];
}

/** Index in `providers` -> the unset variables, for every entry to skip. Reads the raw file. */
export function findSkippedEntries(content: unknown, env: Environment): Map<number, string[]> {
  const skipped = new Map<number, string[]>();
  const providers = (content as { providers?: unknown } | null)?.providers;
  if (!Array.isArray(providers)) return skipped;
  providers.forEach((entry: unknown, index) => {
    const names = ifEnvNames((entry as { ifEnv?: unknown } | null)?.ifEnv);
    const missing = names.filter((name) => !isSet(env, name));
    if (missing.length > 0) skipped.set(index, missing);
  });
  return skipped;
}
