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
  /** Where cosmiconfig searches and relative paths start; defaults to process.cwd(). */
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

  const file = validateConfigFile(interpolated, source.file);
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
