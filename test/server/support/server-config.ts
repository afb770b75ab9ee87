import type { ServerConfig } from '../../../config/types';

/** A ServerConfig for tests that start the gateway's HTTP server: loopback, a free port, small limits. */
export function testServerConfig(overrides: Partial<ServerConfig> = {}): ServerConfig {
  return {
    port: 0,
    host: '127.0.0.1',
    bodyLimitBytes: 1024,
    trustProxy: false,
    cors: { origins: [] },
    maxConnections: 20,
    headersTimeoutMs: 5000,
    requestTimeoutMs: 10000,
    keepAliveTimeoutMs: 5000,
    ...overrides,
  };
}
