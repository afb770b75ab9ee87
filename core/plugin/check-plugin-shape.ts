import { PLUGIN_CONTRACT_V1, type TtsPlugin } from './contract';
import { PluginLoadError } from './plugin-load-error';

const CONTRACT_FAMILY = 'tts-gateway.plugin/';

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && (typeof value === 'object' || typeof value === 'function');
}

/** The plugin object of a loaded module: its default export (ESM or transpiled) or module.exports. */
export function pluginExport(moduleExports: unknown): unknown {
  if (isObject(moduleExports) && !('contract' in moduleExports) && isObject(moduleExports.default)) return moduleExports.default;
  return moduleExports;
}

/**
 * Checks a module's export against the contract before anything calls it, so that a wrong
 * package or an old plugin fails with a message that says what is wrong.
 */
export function checkPluginShape(candidate: unknown, describe: string, configPath: string): TtsPlugin {
  const misfit = (problem: string): never => {
    throw new PluginLoadError('TTS_PLUGIN_BAD_SHAPE', { plugin: describe, configPath, problem }, { configPath });
  };
  if (!isObject(candidate)) return misfit('it exports no plugin object (build its default export with definePlugin())');

  const contract = candidate.contract;
  if (contract === undefined) {
    misfit(`it is not a tts-gateway plugin: its export has no "contract" field (expected "${PLUGIN_CONTRACT_V1}"; build it with definePlugin())`);
  }
  if (contract !== PLUGIN_CONTRACT_V1) {
    const found = typeof contract === 'string' ? `"${contract.slice(0, 60)}"` : `a ${typeof contract}`;
    const advice = typeof contract === 'string' && contract.startsWith(CONTRACT_FAMILY) ? 'use a version of the plugin built for this contract, or a gateway that supports it' : undefined;
    throw new PluginLoadError('TTS_PLUGIN_CONTRACT_MISMATCH', { plugin: describe, configPath, found, supported: PLUGIN_CONTRACT_V1, advice }, { configPath });
  }

  const problems: string[] = [];
  if (typeof candidate.id !== 'string' || candidate.id.trim() === '') problems.push('"id" must be a non-empty string');
  if (!isObject(candidate.optionsSchema) || typeof candidate.optionsSchema === 'function') problems.push('"optionsSchema" must be a JSON Schema object');
  if (typeof candidate.create !== 'function') problems.push('"create" must be a function');
  if (problems.length > 0) misfit(problems.join('; '));
  return candidate as unknown as TtsPlugin;
}

const PROVIDER_METHODS = ['models', 'voices', 'synthesize'] as const;
const OPTIONAL_PROVIDER_METHODS = ['synthesizeStream', 'warmUp', 'close'] as const;

/** What is wrong with what create() returned, or undefined when it is a provider. */
export function providerMisfit(provider: unknown): string | undefined {
  if (provider === null || typeof provider !== 'object') return `create() returned ${provider === null ? 'null' : typeof provider}, not a provider object`;
  const record = provider as Record<string, unknown>;
  const problems = [
    ...PROVIDER_METHODS.filter((name) => typeof record[name] !== 'function').map((name) => `"${name}" must be a function`),
    ...OPTIONAL_PROVIDER_METHODS.filter((name) => record[name] !== undefined && typeof record[name] !== 'function').map((name) => `"${name}" must be a function when present`),
  ];
  return problems.length > 0 ? `the provider create() returned: ${problems.join('; ')}` : undefined;
}
