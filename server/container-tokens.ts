/** Injection tokens of the composition root's tsyringe container. */
export const TOKENS = {
  config: Symbol('GatewayConfig'),
  logger: Symbol('Logger'),
  fetch: Symbol('fetch'),
  accountStore: Symbol('AccountStore'),
  accounts: Symbol('AccountService'),
  audioStore: Symbol('AudioStore'),
  audioProcessor: Symbol('AudioProcessor'),
  providers: Symbol('LoadedProviders'),
  catalog: Symbol('Catalog'),
  router: Symbol('ModelRouter'),
  synthesis: Symbol('SynthesisService'),
  windowCounters: Symbol('WindowCounters'),
  limiter: Symbol('SynthesisLimiter'),
  loginThrottle: Symbol('LoginThrottle'),
  /** Core's `Metrics` port (a PrometheusMetrics); the synthesis and reliability layers report to it. */
  metrics: Symbol('Metrics'),
  /** Providers' health for /health/ready; layers that see failures report to it. */
  providerHealth: Symbol('ProviderHealth'),
} as const;
