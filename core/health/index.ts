export { ProviderHealth, type ProviderStatus } from './provider-health';
