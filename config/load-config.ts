import { dirname } from 'node:path';
import { ConfigError } from './config-error';
import { deepFreeze } from './deep-freeze';
import { interpolateTree, type Environment, type InterpolationProblem } from './interpolate';
import { normalizeConfig } from './normalize-config';
import { findSkippedEntries } from './provider-conditions';
import { readConfigSource } from './read-config-source';
import type { GatewayConfig } from './types';
import { validateConfigFile } from './validate-config-file';

export interface LoadConfigOptions {
  /** Command-line arguments (without node and the script); `--config <file>` is read from here. */
  readonly argv?: readonly string[];
  readonly env?: Environment;
  /**
   * Where cosmiconfig searches and a relative `--config` starts (and plugin paths, without a
   * file); defaults to process.cwd(). The data paths in the file (storage.path, a `sqlite:`
   * file) are opened relative to process.cwd(), wherever the file is.
   */
  readonly cwd?: string;
  /** Told about providers skipped by `ifEnv`. */
  readonly logger?: { info(message: string, meta?: Record<string, unknown>): void };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * Loads the configuration: `--config <file>`, else TTS_GATEWAY_CONFIG, else a cosmiconfig
 * search of the working directory, else the defaults. Interpolates `${VAR}`, skips `ifEnv`
 * providers whose variables are unset, validates against the schema, converts units,
 * applies PORT and PUBLIC_BASE_URL, and returns a deeply frozen GatewayConfig.
 */
export async function loadConfig(options: LoadConfigOptions = {}): Promise<GatewayConfig> {
  const argv = options.argv ?? process.argv.slice(2);
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();

  const source = await readConfigSource(argv, env, cwd);
  const content = source.content ?? {};
  if (!isPlainObject(content)) throw new ConfigError('The configuration must be an object (a mapping of sections)', [], source.file);

  const skipped = findSkippedEntries(content, env);
  const problems: InterpolationProblem[] = [];
  const skippedPaths = new Set([...skipped.keys()].map((index) => `providers[${index}]`));
  const interpolated = interpolateTree(content, env, problems, (path) => skippedPaths.has(path)) as Record<string, unknown>;
  if (problems.length > 0) {
    throw new ConfigError('Missing environment variables', problems.map((problem) => problem.message), source.file);
  }

  const file = validateConfigFile(withSkippedNamedOnly(interpolated, skipped), source.file);
  const config = normalizeConfig({
    file,
    sourceFile: source.file,
    baseDirectory: source.file ? dirname(source.file) : cwd,
    env,
    skipped,
  });
  for (const entry of config.skippedProviders) {
    options.logger?.info(`Provider ${entry.id ?? entry.plugin} (${entry.configPath}) skipped: ${entry.missingVariables.join(', ')} not set`, {
      plugin: entry.plugin,
      missingVariables: entry.missingVariables,
    });
  }
  return deepFreeze(config);
}

/**
 * A provider entry skipped by `ifEnv` is checked for the fields that name it only: the rest may
 * hold `${VAR}`s left as written (the variables are legitimately unset), which would fail their
 * types (`maxResponseBytes: ${MAX}`). It is checked in full at a start that uses it.
 */
function withSkippedNamedOnly(file: Record<string, unknown>, skipped: ReadonlyMap<number, readonly string[]>): Record<string, unknown> {
  if (skipped.size === 0 || !Array.isArray(file.providers)) return file;
  const providers = file.providers.map((entry: unknown, index) => (skipped.has(index) ? namingFields(entry as Record<string, unknown>) : entry));
  return { ...file, providers };
}

function namingFields(entry: Record<string, unknown>): Record<string, unknown> {
  const named: Record<string, unknown> = { plugin: entry.plugin, ifEnv: entry.ifEnv };
  if (entry.id !== undefined) named.id = entry.id;
  return named;
}
