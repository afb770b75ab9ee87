import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { loadConfig } from '../../config';
import type { Catalog } from '../../core';
import { composeGateway, type Gateway } from '../../server/composition-root';
import { TOKENS } from '../../server/container-tokens';
import { createLogger } from '../../server/logger';

/** Every built-in plugin at once; the network is a stand-in that is never reachable. */
const providers = [
  { plugin: 'openai', options: { apiKey: 'sk-test' } },
  { plugin: 'elevenlabs', options: { apiKey: 'xi-test' } },
  { plugin: 'azure', options: { apiKey: 'azure-test', region: 'westeurope' } },
  { plugin: 'edge' },
  { plugin: 'google', options: { apiKey: 'google-test' } },
  { plugin: 'polly', options: { region: 'eu-west-1', accessKeyId: 'AKIDTEST', secretAccessKey: 'secret-test' } },
  { plugin: 'minimax', options: { apiKey: 'minimax-test' } },
  { plugin: 'deepgram', options: { apiKey: 'deepgram-test' } },
  { plugin: 'cartesia', options: { apiKey: 'cartesia-test' } },
  { plugin: 'openai-compatible', id: 'kokoro', options: { baseUrl: 'http://kokoro.test:8880', models: ['kokoro'] } },
  { plugin: 'espeak' },
];

const compare = (left: string, right: string) => (left < right ? -1 : left > right ? 1 : 0);
const unreachable = (() => Promise.reject(new TypeError('fetch failed'))) as typeof fetch;

describe('e2e: the catalog with every provider enabled', function () {
  this.timeout(120_000);
  let gateway: Gateway;
  let directory: string;

  before(async () => {
    directory = mkdtempSync(join(tmpdir(), 'tts-gateway-all-'));
    const config = await loadConfig({ argv: [], env: {}, cwd: directory });
    gateway = await composeGateway(
      { ...config, providers, storage: { ...config.storage, path: join(directory, 'audio') }, database: { ...config.database, url: 'sqlite::memory:' } },
      { fetch: unreachable, logger: createLogger({ level: 'error', format: 'json' }) },
    );
  });
  after(async () => {
    await gateway?.close();
    rmSync(directory, { recursive: true, force: true });
  });

  it('serves the models of all eleven providers, sorted by provider, then alphabetically', async () => {
    const registered = await request(gateway.app).post('/api/v1/auth/register').send({ email: 'all@example.com', password: 'long enough password' });
    const response = await request(gateway.app).get('/api/v1/tools/models').set('X-API-Key', registered.body.data.apiKey);
    expect(response.status).to.equal(200);
    const names: string[] = response.body.data;
    const catalog = gateway.container.resolve<Catalog>(TOKENS.catalog);
    const keyed = names.map((name) => ({ provider: catalog.resolve(name).instance.instanceId, name }));
    const sorted = [...keyed].sort((left, right) => (left.provider === right.provider ? compare(left.name, right.name) : compare(left.provider, right.provider)));
    expect(keyed).to.deep.equal(sorted);
    expect(new Set(keyed.map((entry) => entry.provider))).to.have.property('size', providers.length);
    for (const expected of ['tts-1', 'gpt-4o-mini-tts', 'azure-tts', 'edge-tts', 'polly-neural', 'speech-02-hd', 'aura-2', 'espeak-ng', 'kokoro']) {
      expect(names.some((name) => name === expected || name.endsWith(expected))).to.equal(true, `missing ${expected}`);
    }
    expect(new Set(names).size).to.equal(names.length);
  });
});
