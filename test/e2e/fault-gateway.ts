import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { loadConfig } from '../../config';
import { composeGateway, type Gateway } from '../../server/composition-root';
import { createLogger } from '../../server/logger';
import type { ScriptedUpstream } from './scripted-upstream';

/** A gateway composed from a real config file, in front of one `openai-compatible` provider. */
export interface FaultGateway {
  readonly gateway: Gateway;
  readonly apiKey: string;
  /** Files in the audio folder now. */
  storedFiles(): string[];
  synthesize(body: Record<string, unknown>): request.Test;
  /** The same text through tts-stream, in `format`; the body is the whole stream as a Buffer. */
  stream(format?: string): request.Test;
  /** The stored audio file behind an answer's `audio_url`; the body is its bytes as a Buffer. */
  download(audioUrl: string): request.Test;
  dispose(): Promise<void>;
}

/**
 * Writes `sections` (the config file's own names and units) plus a provider entry for the
 * stand-in at `baseUrl` (and `otherProviders` after it), composes the gateway and registers one account.
 */
export async function startFaultGateway(
  baseUrl: string,
  sections: Record<string, unknown>,
  providerOptions: Record<string, unknown> = {},
  otherProviders: readonly Record<string, unknown>[] = [],
): Promise<FaultGateway> {
  const directory = mkdtempSync(join(tmpdir(), 'tts-gateway-faults-'));
  const audioPath = join(directory, 'audio');
  const file = {
    server: { publicBaseUrl: 'http://gateway.test' },
    storage: { path: audioPath },
    database: { url: 'sqlite::memory:' },
    // Identical requests must reach the stand-in each time: the result cache is off unless a test turns it on.
    cache: { results: { enabled: false } },
    ...sections,
    providers: [
      {
        plugin: 'openai-compatible',
        id: 'kokoro',
        options: { baseUrl, models: ['tts-1'], voices: ['alloy'], formats: ['mp3', 'wav', 'pcm'], pcmSampleRate: 24000, ...providerOptions },
      },
      ...otherProviders,
    ],
  };
  const configPath = join(directory, 'tts-gateway.config.json');
  writeFileSync(configPath, JSON.stringify(file));
  const config = await loadConfig({ argv: ['--config', configPath], env: {}, cwd: directory });
  const gateway = await composeGateway(config, { logger: createLogger({ level: 'error', format: 'json' }) });
  const registered = await request(gateway.app).post('/api/v1/auth/register').send({ email: 'faults@example.com', password: 'password-123' });
  const apiKey = registered.body.data.apiKey as string;
  return {
    gateway,
    apiKey,
    storedFiles: () => (existsSync(audioPath) ? readdirSync(audioPath).filter((name) => !name.startsWith('.')) : []),
    synthesize: (body) => request(gateway.app).post('/api/v1/common/tts-sync').set('X-API-Key', apiKey).send({ model: 'tts-1', voice: 'alloy', text: 'Hello from the fault suite.', ...body }),
    stream: (format = 'mp3') =>
      request(gateway.app)
        .post('/api/v1/common/tts-stream')
        .set('X-API-Key', apiKey)
        .send({ model: 'tts-1', voice: 'alloy', text: 'Hello from the fault suite.', format })
        .buffer(true)
        .parse(collectBytes),
    download: (audioUrl) => request(gateway.app).get(new URL(audioUrl).pathname).buffer(true).parse(collectBytes),
    dispose: async () => {
      await gateway.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

/**
 * A gateway for the enclosing mocha suite, in front of the suite's stand-in: started in the
 * suite's `before` (once the stand-in listens) and disposed of in its `after`.
 */
export function faultGatewayForSuite(
  upstream: ScriptedUpstream,
  sections: Record<string, unknown>,
  providerOptions: Record<string, unknown> = {},
  otherProviders: readonly Record<string, unknown>[] = [],
): FaultGateway {
  let started: FaultGateway | undefined;
  const current = (): FaultGateway => {
    if (!started) throw new Error('the suite gateway is used before its before() hook ran');
    return started;
  };
  before(async () => {
    started = await startFaultGateway(upstream.url, sections, providerOptions, otherProviders);
  });
  after(async () => started?.dispose());
  return {
    get gateway() {
      return current().gateway;
    },
    get apiKey() {
      return current().apiKey;
    },
    storedFiles: () => current().storedFiles(),
    synthesize: (body) => current().synthesize(body),
    stream: (format) => current().stream(format),
    download: (audioUrl) => current().download(audioUrl),
    dispose: () => current().dispose(),
  };
}

/** Supertest parser that keeps a binary answer whole. */
function collectBytes(response: request.Response, done: (error: Error | null, body: Buffer) => void): void {
  const parts: Buffer[] = [];
  response.on('data', (part: Buffer) => parts.push(part));
  response.on('end', () => done(null, Buffer.concat(parts)));
}
