import { aliasVoices, type Catalog, type ModelAliases } from '../core';
import type { ListModelsFunction, ListVoicesFunction, ModelEntry } from './app-dependencies';

/** Who owns an alias in OpenAI's model list: the gateway itself. */
const ALIAS_OWNER = 'tts-gateway';

/** The model and voice lists every route shows: the catalog's models, then the aliases in force. */
export function modelLists(catalog: Catalog, aliases: ModelAliases) {
  const listModels: ListModelsFunction = async () => [...catalog.listModels(), ...aliases.names()];
  const listModelEntries = async (): Promise<ModelEntry[]> => [
    ...catalog.listModels().map((id) => ({ id, ownedBy: catalog.resolve(id).instance.instanceId })),
    ...aliases.names().map((id) => ({ id, ownedBy: ALIAS_OWNER })),
  ];
  const listVoices: ListVoicesFunction = async (model, signal) => {
    const alias = aliases.find(model);
    if (!alias) return catalog.listVoices(model, signal);
    return aliasVoices(alias, await catalog.listVoices(alias.target, signal));
  };
  return { listModels, listModelEntries, listVoices };
}
