import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request, { type Response } from 'supertest';
import { loadConfig } from '../../config';
import { composeGateway, type Gateway } from '../../server/composition-root';
import { createLogger } from '../../server/logger';
import { expectErrorEnvelope } from '../server/support/test-app';
import { eventually } from '../support/eventually';
import { FaultyS3Proxy } from '../support/servers/faulty-s3-proxy';
import { S3Server } from '../support/servers/s3-server';

const BUCKET = 'tts-audio-download-faults';
/** `storage.readTimeout` of this gateway: short, so that a wait past it shows at once. */
const READ_TIMEOUT = '1s';
/** A download slower than this waited for the stalled S3 rather than for its deadline. */
const BOUND_MS = 5_000;

async function answerWithin(pending: PromiseLike<Response>): Promise<Response | undefined> {
  return Promise.race([Promise.resolve(pending), new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), BOUND_MS).unref())]);
}

/**
 * Downloads from an S3 bucket that stops answering: the gateway answers 503 at
 * `storage.readTimeout` instead of holding the request, and lets the held S3 request go. The
 * bucket is a real S3-compatible server (s3rver) behind a proxy that stalls reads on demand.
 */
describe('e2e: downloads when S3 reads stall', function () {
  this.timeout(60_000);
  let folder: string;
  let s3: S3Server;
  let proxy: FaultyS3Proxy;
  let gateway: Gateway;
  let prefix: string;
  let downloadPath: string;

  before(async () => {
    folder = mkdtempSync(join(tmpdir(), 'tts-gateway-download-faults-'));
    s3 = await S3Server.start([BUCKET]);
    proxy = await FaultyS3Proxy.start(s3.port);
    prefix = `${randomUUID()}/`;
    const configPath = join(folder, 'gateway.json');
    const s3Section = { bucket: BUCKET, endpoint: proxy.endpoint, region: 'us-east-1', forcePathStyle: true, prefix, accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
    writeFileSync(configPath, JSON.stringify({ database: { url: 'sqlite::memory:' }, storage: { driver: 's3', s3: s3Section, readTimeout: READ_TIMEOUT } }));
    gateway = await composeGateway(await loadConfig({ argv: ['--config', configPath], env: {}, cwd: folder }), { logger: createLogger({ level: 'error', format: 'json' }) });
    await gateway.warmedUp;
    const registered = await request(gateway.app).post('/api/v1/auth/register').send({ email: 'downloads@example.com', password: 'correct horse battery' });
    const synthesized = await request(gateway.app)
      .post('/api/v1/common/tts-sync')
      .set('X-API-Key', registered.body.data.apiKey as string)
      .send({ model: 'espeak-ng', voice: 'en-us', text: 'A file to download.', format: 'wav' })
      .expect(200);
    downloadPath = new URL(synthesized.body.data.audio_url as string).pathname;
  });

  afterEach(() => {
    proxy.reads = 'pass';
  });

  after(async () => {
    await gateway?.close();
    await proxy?.close();
    await s3?.stop();
    rmSync(folder, { recursive: true, force: true });
  });

  const download = () => request(gateway.app).get(downloadPath).responseType('blob');

  it('a GET whose S3 HEAD stalls answers 503 TTS_ERR_UNAVAILABLE with Retry-After at storage.readTimeout, names neither file nor bucket, and lets the held request go', async () => {
    expect((await download()).status).to.equal(200);
    proxy.reads = 'stall';
    const faultedBefore = proxy.readsFaulted;
    const response = await answerWithin(download());
    expect(response, `an answer within ${BOUND_MS} ms`).to.not.equal(undefined);
    // That it was the deadline (not an early failure) shows in the reason, never in a timing.
    expect(response!.status).to.equal(503);
    expect(response!.headers['retry-after']).to.equal('1');
    const body = JSON.parse(Buffer.from(response!.body as Buffer).toString()) as { message: string };
    expect(expectErrorEnvelope(body, 'TTS_ERR_UNAVAILABLE').details).to.deep.equal([{ reason: 'storage_timeout' }]);
    expect(body.message).to.equal("The gateway's audio storage is unavailable: it did not answer within 1 s");
    const fileName = downloadPath.split('/').pop()!;
    for (const secret of [fileName.split('.')[0], BUCKET, prefix]) expect(JSON.stringify(body)).to.not.include(secret);
    expect(proxy.readsFaulted).to.equal(faultedBefore + 1);
    await eventually(() => void expect(proxy.stalledReadsClosed).to.equal(proxy.readsFaulted), 200);
  });

  it('a HEAD whose S3 HEAD stalls answers 503 with Retry-After at the deadline; once S3 answers again the file downloads', async () => {
    proxy.reads = 'stall';
    const head = await answerWithin(request(gateway.app).head(downloadPath));
    expect(head?.status).to.equal(503);
    expect(head?.headers['retry-after']).to.equal('1');
    await eventually(() => void expect(proxy.stalledReadsClosed).to.equal(proxy.readsFaulted), 200);
    proxy.reads = 'pass';
    const again = await download().expect(200);
    expect(Buffer.from(again.body as Buffer).subarray(0, 4).toString()).to.equal('RIFF');
  });
});
