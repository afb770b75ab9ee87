import { PluginLoadError } from './plugin-load-error';

interface ProviderModels {
  readonly instanceId: string;
  readonly configPath: string;
  readonly modelMap: ReadonlyMap<string, string>;
}

/**
 * A catalog name must mean one model: when two providers offer the same name, the start stops
 * and says how to settle it in the config.
 */
export function assertNoModelClashes(providers: readonly ProviderModels[]): void {
  const owners = new Map<string, ProviderModels>();
  for (const provider of providers) {
    for (const catalogName of provider.modelMap.keys()) {
      const owner = owners.get(catalogName);
      if (owner) {
        throw new PluginLoadError(
          'TTS_PLUGIN_MODEL_CLASH',
          {
            model: `"${catalogName}"`,
            first: `"${owner.instanceId}"`,
            firstConfigPath: owner.configPath,
            provider: `"${provider.instanceId}"`,
            configPath: provider.configPath,
            providerModel: provider.modelMap.get(catalogName),
            suggestion: `${catalogName}-${provider.instanceId}`,
          },
          { configPath: provider.configPath },
        );
      }
      owners.set(catalogName, provider);
    }
  }
}
