import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { loadConfig } from '../../config';
import { composeGateway, type Gateway } from '../../server/composition-root';
import { createLogger } from '../../server/logger';

/**
 * Spec 2.2: the model list is sorted by provider, then by name. Aliases and routes are the
 * gateway's own (`owned_by: tts-gateway`): they take that place in the order, not the end.
 */
describe('server model lists: aliases and routes sorted in among the providers', function () {
  this.timeout(60_000);
  let gateway: Gateway;
  let directory: string;
  let apiKey: string;

  before(async () => {
    directory = mkdtempSync(join(tmpdir(), 'tts-gateway-model-order-'));
    const config = await loadConfig({ argv: [], env: {}, cwd: directory });
    // Two instances of the embedded engine: one whose id sorts before `tts-gateway`, one after.
    const providers = [
      { plugin: 'espeak', id: 'zulu', rename: { 'espeak-ng': 'zulu-speech' } },
      { plugin: 'espeak', id: 'alpha', rename: { 'espeak-ng': 'alpha-speech' } },
    ];
    const routes = [{ name: 'narrator', strategy: 'fallback' as const, targets: [{ model: 'alpha-speech', voices: { default: 'en-us' }, weight: 1 }] }];
    const aliases = [{ model: 'tts-1', target: 'zulu-speech', voices: { alloy: 'en-us' } }];
    gateway = await composeGateway(
      { ...config, providers, routes, aliases, storage: { ...config.storage, path: join(directory, 'audio') }, database: { ...config.database, url: 'sqlite::memory:' } },
      { logger: createLogger({ level: 'error', format: 'json' }) },
    );
    const registered = await request(gateway.app).post('/api/v1/auth/register').send({ email: 'order@example.com', password: 'long enough password' });
    apiKey = registered.body.data.apiKey as string;
  });
  after(async () => {
    await gateway?.close();
    rmSync(directory, { recursive: true, force: true });
  });

  it('lists alpha, then the gateway own names, then zulu on /api/v1/tools/models', async () => {
    const response = await request(gateway.app).get('/api/v1/tools/models').set('X-API-Key', apiKey).expect(200);
    expect(response.body.data).to.deep.equal(['alpha-speech', 'narrator', 'tts-1', 'zulu-speech']);
  });

  it('lists them in the same order, with their owners, on /v1/models', async () => {
    const response = await request(gateway.app).get('/v1/models').set('Authorization', `Bearer ${apiKey}`).expect(200);
    expect(response.body.data.map((model: { id: string; owned_by: string }) => [model.id, model.owned_by])).to.deep.equal([
      ['alpha-speech', 'alpha'],
      ['narrator', 'tts-gateway'],
      ['tts-1', 'tts-gateway'],
      ['zulu-speech', 'zulu'],
    ]);
  });
});
