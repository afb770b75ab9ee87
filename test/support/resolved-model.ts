import type { ModelCapabilities, ResolvedModel, TtsProvider } from '../../core';

/** A catalog entry for fakes: one provider instance serving one model under the same name. */
export function resolvedModel(instanceId: string, provider: TtsProvider, model: string, capabilities: ModelCapabilities): ResolvedModel {
  const modelInfo = { name: model, capabilities };
  const instance = { instanceId, pluginId: instanceId, provider, models: [modelInfo], modelMap: new Map([[model, model]]), configPath: 'providers[0]' };
  return { instance, provider, modelInfo, providerModelName: model };
}
