/** What the HTTP benches share to run a gateway: its environment, its config file, a key. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { exchange } from './child-process';

/** How long a gateway (or the stand-in) may take to answer its first request. */
export const START_TIMEOUT_MS = 30_000;

/** The bench's own environment as `npm start` would see it in production, without a config of the caller's. */
export function gatewayEnvironment(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const environment: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'production', ...extra };
  delete environment.TTS_GATEWAY_CONFIG;
  delete environment.PUBLIC_BASE_URL;
  return environment;
}

/** A config in `folder`: the `openai-compatible` plugin on the stand-in at `upstream`, plus espeak. */
export function writeGatewayConfig(folder: string, port: number, upstream: string): string {
  const file = join(folder, 'tts-gateway.config.json');
  const config = {
    server: { port, host: '127.0.0.1' },
    storage: { path: join(folder, 'audio') },
    database: { url: `sqlite:${join(folder, 'gateway.db')}` },
    logging: { level: 'info', format: 'json' },
    providers: [
      { plugin: 'espeak' },
      { plugin: 'openai-compatible', id: 'standin', options: { baseUrl: upstream, models: ['tts-1'], voices: ['alloy'], modelPrefix: 'standin', formats: ['mp3'] } },
    ],
  };
  writeFileSync(file, JSON.stringify(config, null, 2));
  return file;
}

/** Registers the bench's account and returns its API key. */
export async function register(gateway: string): Promise<string> {
  const answer = await exchange(`${gateway}/api/v1/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'bench@example.com', password: 'benchmark password' }),
  });
  if (answer.status !== 200) throw new Error(`registration failed with ${answer.status}: ${answer.body}`);
  return (JSON.parse(answer.body) as { data: { apiKey: string } }).data.apiKey;
}
