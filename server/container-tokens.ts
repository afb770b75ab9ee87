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
} as const;
