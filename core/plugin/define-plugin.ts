import { PLUGIN_CONTRACT_V1, type JsonSchema, type PluginContext, type TtsPlugin, type TtsProvider } from './contract';

/** The fields a plugin author writes; `definePlugin` stamps the contract version. */
export interface PluginDefinition<Options> {
  readonly id: string;
  readonly optionsSchema: JsonSchema;
  create(options: Options, context: PluginContext): Promise<TtsProvider> | TtsProvider;
}

/** Builds a plugin's default export with the current contract version. */
export function definePlugin<Options>(definition: PluginDefinition<Options>): TtsPlugin<Options> {
  return Object.freeze({ contract: PLUGIN_CONTRACT_V1, ...definition });
}
