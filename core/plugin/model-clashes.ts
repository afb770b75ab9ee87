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
          `Model "${catalogName}" is offered by both provider "${owner.instanceId}" (${owner.configPath}) and provider "${provider.instanceId}" (${provider.configPath}). ` +
            `Keep it on one of them with "models:" (the models to serve) or give one a new name with "rename:", ` +
            `for example under ${provider.configPath}: rename: { ${provider.modelMap.get(catalogName)}: ${catalogName}-${provider.instanceId} }`,
          { configPath: provider.configPath },
        );
      }
      owners.set(catalogName, provider);
    }
  }
}
