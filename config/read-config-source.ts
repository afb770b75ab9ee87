import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { cosmiconfig } from 'cosmiconfig';
import { ConfigError } from './config-error';
import type { Environment } from './interpolate';
import { JAVASCRIPT_CONFIG, javascriptReason } from './javascript-error-reason';
import { jsonReason, yamlReason } from './parse-error-reason';

export const MODULE_NAME = 'tts-gateway';
export const CONFIG_PATH_VARIABLE = 'TTS_GATEWAY_CONFIG';

/** Where cosmiconfig looks in the working directory, first match wins. */
export const SEARCH_PLACES: readonly string[] = [
  'package.json',
  `.${MODULE_NAME}rc`,
  `.${MODULE_NAME}rc.json`,
  `.${MODULE_NAME}rc.yaml`,
  `.${MODULE_NAME}rc.yml`,
  `.${MODULE_NAME}rc.js`,
  `.${MODULE_NAME}rc.cjs`,
  `${MODULE_NAME}.config.yaml`,
  `${MODULE_NAME}.config.yml`,
  `${MODULE_NAME}.config.json`,
  `${MODULE_NAME}.config.js`,
  `${MODULE_NAME}.config.cjs`,
  `${MODULE_NAME}.config.mjs`,
  `${MODULE_NAME}.config.ts`,
];

/** The raw content of the config, before interpolation and validation. */
export interface ConfigSource {
  /** Absolute path of the file, or undefined when none was found (zero config). */
  readonly file?: string;
  readonly content: unknown;
}

/** `--config <file>` or `--config=<file>`; the last one wins. */
export function configPathFromArgv(argv: readonly string[]): string | undefined {
  let path: string | undefined;
  argv.forEach((argument, index) => {
    if (argument === '--config') path = argv[index + 1];
    else if (argument.startsWith('--config=')) path = argument.slice('--config='.length);
    else return;
    // An empty path (`--config=$UNSET`) must not fall back to the search: it would start on another file.
    if (path === undefined || path === '' || path.startsWith('--')) throw new ConfigError('--config needs a file path');
  });
  return path;
}

// cosmiconfig prefixes parse errors with `YAML Error in <file>:` (JSON's with a space after the colon).
const FILE_PREFIX = /^(\w+) Error in (.+):\s*$/;

function readText(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

// Parser messages quote the file (maybe a secret): JSON's and YAML's are reduced to what names no content.
function describeReadError(error: unknown): { file?: string; reason: string } {
  const message = error instanceof Error ? error.message : String(error);
  // parse-json colours its code frame where picocolors sees a terminal, FORCE_COLOR or CI.
  const lines = stripVTControlCharacters(message).split('\n').filter((line) => line.trim() !== '');
  const prefix = FILE_PREFIX.exec(lines[0] ?? '');
  // A .js file's own error has no prefix; cosmiconfig still says which file it came from.
  const loaded = (error as { filepath?: unknown } | null)?.filepath;
  if (typeof loaded === 'string' && JAVASCRIPT_CONFIG.test(loaded)) return { file: loaded, reason: javascriptReason(error, loaded) };
  if (!prefix) return { file: typeof loaded === 'string' ? loaded : undefined, reason: lines[0] ?? 'unreadable' };
  const [, format, file] = prefix;
  if (format === 'JSON') return { file, reason: jsonReason(lines.slice(1), readText(file)) };
  if (format === 'YAML') return { file, reason: yamlReason(lines[1] ?? 'unreadable') };
  return { file, reason: lines[1] ?? 'unreadable' };
}

// `{ apiKey: ${KEY} }` is not valid YAML (braces end a plain scalar in a flow mapping).
const UNQUOTED_FLOW_REFERENCE = /[{[][^\n]*[\s,:[{]\$\{/;

function yamlHint(file: string | undefined, reason: string): string | undefined {
  const lineNumber = /\((\d+):\d+\)/.exec(reason)?.[1];
  if (!file || lineNumber === undefined || !/(\.ya?ml|rc)$/.test(file)) return undefined;
  const line = (readText(file) ?? '').split('\n')[Number(lineNumber) - 1] ?? '';
  if (!UNQUOTED_FLOW_REFERENCE.test(line)) return undefined;
  return `line ${lineNumber}: inside { } or [ ], quote a reference: "\${NAME}", or write the mapping in block style`;
}

function readFailure(error: unknown, fallbackFile?: string, searchedDirectory?: string): ConfigError {
  const { file = fallbackFile, reason } = describeReadError(error);
  const hint = yamlHint(file, reason);
  const summary = file || !searchedDirectory ? 'Could not read the configuration' : `Could not read the configuration found in ${searchedDirectory}`;
  return new ConfigError(summary, hint ? [reason, hint] : [reason], file);
}

export async function readConfigSource(argv: readonly string[], env: Environment, cwd: string): Promise<ConfigSource> {
  const fromArgv = configPathFromArgv(argv);
  const explicit = fromArgv ?? env[CONFIG_PATH_VARIABLE];
  const origin = fromArgv !== undefined ? '--config' : CONFIG_PATH_VARIABLE;
  const explorer = cosmiconfig(MODULE_NAME, { searchPlaces: [...SEARCH_PLACES], cache: false });

  if (explicit !== undefined && explicit !== '') {
    const file = resolve(cwd, explicit);
    if (!existsSync(file)) throw new ConfigError(`The config file ${file} (named by ${origin}) does not exist`);
    try {
      const result = await explorer.load(file);
      return { file, content: result?.isEmpty ? {} : result?.config };
    } catch (error) {
      throw readFailure(error, file);
    }
  }

  let found: Awaited<ReturnType<typeof explorer.search>>;
  try {
    found = await explorer.search(cwd);
  } catch (error) {
    throw readFailure(error, undefined, cwd);
  }
  if (!found) return { content: {} };
  return { file: found.filepath, content: found.isEmpty ? {} : found.config };
}
