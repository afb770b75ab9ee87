import { writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { projectRoot } from '../../support/paths';

/** The built CLI, as `npm start` runs it. */
export const CLI = join(projectRoot, 'dist', 'server', 'cli.js');

export function listenOn(server: Server, host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve) => server.listen(0, host, () => resolve((server.address() as AddressInfo).port)));
}

/**
 * Writes the folder's config: a gateway on a free port, an in-memory database, JSON logs when
 * asked, and the `providers:` entries given as YAML lines.
 */
export function writeGatewayConfig(directory: string, providerLines: readonly string[], options: { readonly jsonLogs?: boolean } = {}): void {
  const logging = options.jsonLogs === false ? [] : ['logging:', '  format: json'];
  writeFileSync(
    join(directory, 'tts-gateway.config.yaml'),
    ['server:', '  host: 127.0.0.1', '  port: 0', 'database:', '  url: "sqlite::memory:"', ...logging, 'providers:', ...providerLines, ''].join('\n'),
  );
}

/** Writes the folder's config: a gateway on a free port, in-memory database, JSON logs, the `openai-compatible` plugin on `upstreamPort`. */
export function writeOpenAiCompatibleConfig(directory: string, upstreamPort: number): void {
  writeGatewayConfig(directory, [
    '  - plugin: openai-compatible',
    '    options:',
    `      baseUrl: http://127.0.0.1:${upstreamPort}`,
    '      models: [tts-1]',
    '      voices: [alloy]',
  ]);
}

/** Registers an account on the gateway at `port` and answers its first API key. */
export async function registeredKey(port: number): Promise<string> {
  const registered = await fetch(`http://127.0.0.1:${port}/api/v1/auth/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: 'ada@example.com', password: 'correct horse' }),
  });
  return ((await registered.json()) as { data: { apiKey: string } }).data.apiKey;
}
