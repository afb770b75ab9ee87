import 'reflect-metadata';
import type { Server } from 'node:http';
import { loadConfig } from '../config';
import { composeGateway, type Gateway } from './composition-root';
import { describeStartupError } from './startup-error';

/** Starts the gateway: config -> composition -> HTTP server, with a graceful shutdown. */
async function main(): Promise<void> {
  let gateway: Gateway;
  try {
    const config = await loadConfig({ argv: process.argv.slice(2), env: process.env });
    gateway = await composeGateway(config);
  } catch (error) {
    process.stderr.write(`tts-gateway could not start: ${describeStartupError(error)}\n`);
    process.exit(1);
  }
  const { config, logger } = gateway;
  const server: Server = gateway.app.listen(config.server.port, config.server.host, () => {
    const base = config.server.publicBaseUrl ?? `http://localhost:${config.server.port}`;
    logger.info('tts-gateway listening', { host: config.server.host, port: config.server.port, publicBaseUrl: base, config: config.sourceFile ?? '(defaults)' });
  });
  server.on('error', (error) => {
    logger.error('the HTTP server failed', { error: error.message });
    process.exit(1);
  });
  const stop = (signal: string) => {
    logger.info('shutting down', { signal });
    server.close(() => void gateway.close().finally(() => process.exit(0)));
    setTimeout(() => process.exit(0), 10_000).unref();
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
}

void main();
