import { ResilientProvider, type Catalog } from '../core';

/** The provider instance serving a catalog model; undefined for a route (its target is chosen per request) or an unknown name. */
export function providerOfModel(catalog: Catalog, model: string): string | undefined {
  try {
    return catalog.resolve(model).instance.instanceId;
  } catch {
    return undefined;
  }
}

/**
 * Whether the provider of a route's preferred model would refuse a call of that route now (one
 * with another target to go to): its breaker open (trial not due) or its trial under way, or
 * the model not served at all.
 */
export function refusesRouteCalls(catalog: Catalog, model: string): boolean {
  try {
    const { provider } = catalog.resolve(model).instance;
    return provider instanceof ResilientProvider && provider.refusesCallersWithFallback();
  } catch {
    return true;
  }
}
