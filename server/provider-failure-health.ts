import { isGatewayError, type ProviderHealth } from '../core';

/** Upstream failures: they say something about the provider's health (client errors do not). */
const PROVIDER_STATUSES: ReadonlySet<number> = new Set([429, 502, 503, 504]);

/**
 * Keeps a failed provider attempt as the provider's last error for /health/ready, when it says
 * something of the provider. Told by the provider's resilience layer, which knows the provider
 * whatever name the request used (a model, an alias, a route's target).
 */
export function recordProviderFailure(health: ProviderHealth, provider: string, error: unknown): void {
  if (isGatewayError(error) && PROVIDER_STATUSES.has(error.status)) health.recordError(provider, `${error.code}: ${error.message}`);
}
