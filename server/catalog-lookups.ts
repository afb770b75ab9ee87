import { ResilientProvider, type Catalog } from '../core';

/** The provider instance serving a catalog model; undefined for a route (its target is chosen per request) or an unknown name. */
export function providerOfModel(catalog: Catalog, model: string): string | undefined {
  try {
    return catalog.resolve(model).instance.instanceId;
  } catch {
    return undefined;
  }
}

/** Whether the provider of a model would refuse a call now: its breaker open (trial not due), or the model not served at all. */
export function refusesCalls(catalog: Catalog, model: string): boolean {
  try {
    const { provider } = catalog.resolve(model).instance;
    return provider instanceof ResilientProvider && provider.refusesCalls();
  } catch {
    return true;
  }
}
