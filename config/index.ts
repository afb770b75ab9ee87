/** Configuration: loading, validation and the frozen GatewayConfig the gateway runs with. */
export * from './types';
export type { TrustedProxies } from './trusted-proxies';
export { loadConfig, type LoadConfigOptions } from './load-config';
export { ConfigError } from './config-error';
export { describeSchemaErrors } from './format-schema-errors';
export { parseByteSize, parseDuration } from './units';
export { CONFIG_FILE_SCHEMA } from './schema';
export { CONFIG_PATH_VARIABLE, SEARCH_PLACES, configPathFromArgv } from './read-config-source';
