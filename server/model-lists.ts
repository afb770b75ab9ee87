import { routeVoices, type Catalog, type ModelRouter } from '../core';
import type { ListModelsFunction, ListVoicesFunction, ModelEntry } from './app-dependencies';

/** Who owns a route or alias in OpenAI's model list: the gateway itself. */
const ROUTE_OWNER = 'tts-gateway';

/** The model and voice lists every route shows: the catalog's models, then the routes and aliases in force. */
export function modelLists(catalog: Catalog, router: ModelRouter) {
  const listModels: ListModelsFunction = async () => [...catalog.listModels(), ...router.names()];
  const listModelEntries = async (): Promise<ModelEntry[]> => [
    ...catalog.listModels().map((id) => ({ id, ownedBy: catalog.resolve(id).instance.instanceId })),
    ...router.names().map((id) => ({ id, ownedBy: ROUTE_OWNER })),
  ];
  const listVoices: ListVoicesFunction = async (model, signal) => {
    const route = router.find(model);
    if (!route) return catalog.listVoices(model, signal);
    return routeVoices(route, (target) => catalog.listVoices(target, signal));
  };
  return { listModels, listModelEntries, listVoices };
}
