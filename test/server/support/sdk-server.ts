import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createGatewayServer } from '../../../server/gateway-server';
import type { TestApp } from './test-app';

/** A test app on the gateway's real HTTP server, on a free port, for the official SDK: its `/v1` base URL. */
export async function serveForSdk(testApp: TestApp): Promise<{ readonly baseURL: string; close(): Promise<void> }> {
  const server: Server = createGatewayServer(testApp.app, testApp.config.server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
