import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, type GatewayConfig } from '../../config';
import { composeGateway, type Gateway } from '../../server/composition-root';
import { createLogger } from '../../server/logger';

/**
 * A real gateway (zero-config providers: the embedded engine) on a temporary data folder;
 * `adjust` changes the loaded config first.
 */
export async function startTestGateway(adjust: (config: GatewayConfig) => GatewayConfig = (config) => config): Promise<{ gateway: Gateway; dispose(): Promise<void> }> {
  const dataDirectory = mkdtempSync(join(tmpdir(), 'tts-gateway-e2e-'));
  const config = adjust(await loadConfig({ argv: [], env: {}, cwd: dataDirectory }));
  const gateway = await composeGateway(
    { ...config, server: { ...config.server, publicBaseUrl: 'http://gateway.test' }, storage: { ...config.storage, path: join(dataDirectory, 'audio') }, database: { ...config.database, url: 'sqlite::memory:' } },
    { logger: createLogger({ level: 'error', format: 'json' }) },
  );
  return {
    gateway,
    dispose: async () => {
      await gateway.close();
      rmSync(dataDirectory, { recursive: true, force: true });
    },
  };
}
