import { compareText, routeVoices, type Catalog, type ModelRouter } from '../core';
import type { ListModelsFunction, ListVoicesFunction, ModelEntry } from './app-dependencies';

/** Who owns a route or alias in OpenAI's model list: the gateway itself. */
const ROUTE_OWNER = 'tts-gateway';

const byOwnerThenName = (left: ModelEntry, right: ModelEntry): number => compareText(left.ownedBy, right.ownedBy) || compareText(left.id, right.id);
const sameNames = (left: readonly string[], right: readonly string[]): boolean => left.length === right.length && left.every((name, index) => name === right[index]);

/** The lists as last merged, and what they were merged from. */
interface MergedLists {
  readonly models: readonly string[];
  readonly routes: readonly string[];
  readonly entries: readonly ModelEntry[];
  readonly ids: readonly string[];
}

/**
 * The model and voice lists every route shows: the catalog's models and the routes and aliases
 * in force, sorted by provider, then by name (spec 2.2), the gateway's own names under their
 * owner, `tts-gateway`, among the providers' instance ids.
 */
export function modelLists(catalog: Catalog, router: ModelRouter) {
  let merged: MergedLists | undefined;
  // Merged again only when a list changed (a provider relisted, a target came or went): the
  // keyed model list is a hot read, and its names rarely change.
  const current = (): MergedLists => {
    const models = catalog.listModels();
    const routes = router.names();
    if (merged && sameNames(merged.models, models) && sameNames(merged.routes, routes)) return merged;
    const entries = [
      ...models.map((id): ModelEntry => ({ id, ownedBy: catalog.resolve(id).instance.instanceId })),
      ...routes.map((id): ModelEntry => ({ id, ownedBy: ROUTE_OWNER })),
    ].sort(byOwnerThenName);
    merged = { models, routes, entries, ids: entries.map((entry) => entry.id) };
    return merged;
  };
  const listModelEntries = async (): Promise<ModelEntry[]> => [...current().entries];
  const listModels: ListModelsFunction = async () => [...current().ids];
  const listVoices: ListVoicesFunction = async (model, signal) => {
    const route = router.find(model);
    if (!route) return catalog.listVoices(model, signal);
    return routeVoices(route, (target) => catalog.listVoices(target, signal));
  };
  return { listModels, listModelEntries, listVoices };
}
