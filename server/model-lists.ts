import { routeVoices, type Catalog, type ModelRouter } from '../core';
import type { ListModelsFunction, ListVoicesFunction, ModelEntry } from './app-dependencies';

/** Who owns a route or alias in OpenAI's model list: the gateway itself. */
const ROUTE_OWNER = 'tts-gateway';

const compareText = (left: string, right: string): number => (left < right ? -1 : left > right ? 1 : 0);
const byOwnerThenName = (left: ModelEntry, right: ModelEntry): number => compareText(left.ownedBy, right.ownedBy) || compareText(left.id, right.id);

/**
 * The model and voice lists every route shows: the catalog's models and the routes and aliases
 * in force, sorted by provider, then by name (spec 2.2), the gateway's own names under their
 * owner, `tts-gateway`, among the providers' instance ids.
 */
export function modelLists(catalog: Catalog, router: ModelRouter) {
  const entries = (routes: readonly string[]): ModelEntry[] => {
    const models = catalog.listModels().map((id): ModelEntry => ({ id, ownedBy: catalog.resolve(id).instance.instanceId }));
    // The catalog's models come sorted already; with no route or alias, nothing is to merge.
    if (routes.length === 0) return models;
    return [...models, ...routes.map((id): ModelEntry => ({ id, ownedBy: ROUTE_OWNER }))].sort(byOwnerThenName);
  };
  const listModelEntries = async (): Promise<ModelEntry[]> => entries(router.names());
  const listModels: ListModelsFunction = async () => {
    const routes = router.names();
    return routes.length === 0 ? catalog.listModels() : entries(routes).map((entry) => entry.id);
  };
  const listVoices: ListVoicesFunction = async (model, signal) => {
    const route = router.find(model);
    if (!route) return catalog.listVoices(model, signal);
    return routeVoices(route, (target) => catalog.listVoices(target, signal));
  };
  return { listModels, listModelEntries, listVoices };
}
