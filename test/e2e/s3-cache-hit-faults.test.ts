import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request, { type Response } from 'supertest';
import { loadConfig } from '../../config';
import { gatewayError, type LoadedProvider } from '../../core';
import { composeGateway, type Gateway } from '../../server/composition-root';
import { TOKENS } from '../../server/container-tokens';
import { createLogger } from '../../server/logger';
import { eventually } from '../support/eventually';
import { FaultyS3Proxy } from '../support/servers/faulty-s3-proxy';
import { S3Server } from '../support/servers/s3-server';

const BUCKET = 'tts-audio-hit-faults';
/** `synthesis.timeout` of this gateway: a hit's read gets as long at most (5 s by default, less under a shorter timeout). */
const SYNTHESIS_TIMEOUT_MS = 3_000;
/** A request slower than this waited for the stalled read rather than for its deadline. */
const BOUND_MS = SYNTHESIS_TIMEOUT_MS + 5_000;

/** Answers the request, or a note that it went on past BOUND_MS. */
async function answerWithin(pending: PromiseLike<Response>): Promise<{ response?: Response }> {
  const response = await Promise.race([Promise.resolve(pending), new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), BOUND_MS).unref())]);
  return { response };
}

/**
 * The result cache on S3 when S3 fails a hit's read: a stalled read ends at its deadline, a
 * passing failure (503 SlowDown) is a miss for that request that keeps the entry, and only an
 * object that is gone (404 NoSuchKey) drops it. The bucket is a real S3-compatible server
 * (s3rver) behind a proxy that fails reads on demand.
 */
describe('e2e: result-cache hits when S3 reads fail', function () {
  this.timeout(60_000);
  let folder: string;
  let s3: S3Server;
  let proxy: FaultyS3Proxy;
  let gateway: Gateway;
  let apiKey: string;
  let providerCalls = 0;
  /** While set, the provider fails every call (an outage of its own). */
  let providerDown = false;

  before(async () => {
    folder = mkdtempSync(join(tmpdir(), 'tts-gateway-hit-faults-'));
    s3 = await S3Server.start([BUCKET]);
    proxy = await FaultyS3Proxy.start(s3.port);
    const configPath = join(folder, 'gateway.json');
    const s3Section = { bucket: BUCKET, endpoint: proxy.endpoint, region: 'us-east-1', forcePathStyle: true, prefix: `${randomUUID()}/`, accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
    writeFileSync(
      configPath,
      JSON.stringify({ database: { url: 'sqlite::memory:' }, storage: { driver: 's3', s3: s3Section }, synthesis: { timeout: SYNTHESIS_TIMEOUT_MS }, resilience: { retries: 0 } }),
    );
    gateway = await composeGateway(await loadConfig({ argv: ['--config', configPath], env: {}, cwd: folder }), { logger: createLogger({ level: 'error', format: 'json' }) });
    await gateway.warmedUp;
    const [espeak] = gateway.container.resolve<LoadedProvider[]>(TOKENS.providers);
    const synthesize = espeak.provider.synthesize.bind(espeak.provider);
    espeak.provider.synthesize = (providerRequest) => {
      providerCalls += 1;
      if (providerDown) return Promise.reject(gatewayError('TTS_ERR_UNAVAILABLE', { provider: 'espeak', reason: 'down for this test' }));
      return synthesize(providerRequest);
    };
    const registered = await request(gateway.app).post('/api/v1/auth/register').send({ email: 'hits@example.com', password: 'correct horse battery' });
    apiKey = registered.body.data.apiKey as string;
  });

  afterEach(() => {
    proxy.reads = 'pass';
    providerDown = false;
  });

  after(async () => {
    await gateway?.close();
    await proxy?.close();
    await s3?.stop();
    rmSync(folder, { recursive: true, force: true });
  });

  const synthesize = (text: string) => request(gateway.app).post('/api/v1/common/tts-sync').set('X-API-Key', apiKey).send({ model: 'espeak-ng', voice: 'en-us', text, format: 'wav' });
  const stream = (text: string) =>
    request(gateway.app)
      .post('/api/v1/common/tts-stream')
      .set('X-API-Key', apiKey)
      .send({ model: 'espeak-ng', voice: 'en-us', text, format: 'wav' })
      .buffer(true)
      .parse((response, done) => {
        const parts: Buffer[] = [];
        response.on('data', (part: Buffer) => parts.push(part));
        response.on('end', () => done(null, Buffer.concat(parts)));
      });

  /** Makes `text` a remembered result: a miss, then a hit. */
  async function cached(text: string): Promise<void> {
    expect((await synthesize(text)).headers['x-tts-cache']).to.equal('miss');
    expect((await synthesize(text)).headers['x-tts-cache']).to.equal('hit');
  }

  it('a file hit whose S3 read stalls ends at its deadline: the request is answered with audio from the provider, and the held read is let go', async () => {
    await cached('A read that will stall.');
    const callsBefore = providerCalls;
    proxy.reads = 'stall';
    const { response } = await answerWithin(synthesize('A read that will stall.'));
    expect(response, `an answer within ${BOUND_MS} ms`).to.not.equal(undefined);
    expect(response!.status).to.equal(200);
    expect(response!.headers['x-tts-cache']).to.equal('miss');
    expect(providerCalls).to.equal(callsBefore + 1);
    expect(proxy.readsFaulted).to.be.at.least(1);
    await eventually(() => void expect(proxy.stalledReadsClosed).to.equal(proxy.readsFaulted), 200);
  });

  it('a streamed hit whose S3 read stalls ends at its deadline: the stream is the provider audio', async () => {
    await cached('A stream whose read will stall.');
    proxy.reads = 'stall';
    const { response } = await answerWithin(stream('A stream whose read will stall.'));
    expect(response, `an answer within ${BOUND_MS} ms`).to.not.equal(undefined);
    expect(response!.status).to.equal(200);
    expect(response!.headers['x-tts-cache']).to.equal('miss');
    expect((response!.body as Buffer).subarray(0, 4).toString()).to.equal('RIFF');
  });

  it('a 503 SlowDown on a hit is a miss for that request and keeps the entry: once S3 recovers the next request is a hit, the provider down meanwhile', async () => {
    await cached('SlowDown on a hit.');
    proxy.reads = { status: 503, code: 'SlowDown' };
    // S3 failing alone: the request is synthesized.
    const synthesized = await synthesize('SlowDown on a hit.');
    expect(synthesized.status).to.equal(200);
    expect(synthesized.headers['x-tts-cache']).to.equal('miss');
    // S3 and the provider failing: the request fails, and the cache keeps what it had.
    providerDown = true;
    const failed = await synthesize('SlowDown on a hit.');
    expect(failed.status).to.equal(503);
    proxy.reads = 'pass';
    const recovered = await synthesize('SlowDown on a hit.');
    expect(recovered.status).to.equal(200);
    expect(recovered.headers['x-tts-cache']).to.equal('hit');
  });

  it('a 404 NoSuchKey on a hit (the object is gone) drops the entry: the next request is a miss even once S3 answers again', async () => {
    await cached('An object that is gone.');
    proxy.reads = { status: 404, code: 'NoSuchKey' };
    providerDown = true;
    expect((await synthesize('An object that is gone.')).status).to.equal(503);
    proxy.reads = 'pass';
    providerDown = false;
    const after = await synthesize('An object that is gone.');
    expect(after.status).to.equal(200);
    expect(after.headers['x-tts-cache']).to.equal('miss');
  });
});
