import { expect } from 'chai';
import { ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request, { type Response } from 'supertest';
import { loadConfig } from '../../config';
import { composeGateway, type Gateway } from '../../server/composition-root';
import { eventually, holdsWithin } from '../support/eventually';
import { FaultyS3Proxy } from '../support/servers/faulty-s3-proxy';
import { S3Server } from '../support/servers/s3-server';
import { recordingWinstonLogger } from '../support/recording-winston-logger';

const BUCKET = 'tts-audio-stalled-bucket';
/** `storage.s3.requestTimeout` of this gateway: short, so that a wait past it shows at once. */
const REQUEST_TIMEOUT = '200ms';
/** The sweeper's interval, and how long a file lives. */
const SWEEP_INTERVAL = '1s';
const RETENTION = '2s';
/** A readiness answer slower than this waited for the stalled bucket rather than for a limit. */
const BOUND_MS = 5_000;

async function answerWithin(pending: PromiseLike<Response>): Promise<Response | undefined> {
  return Promise.race([Promise.resolve(pending), new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), BOUND_MS).unref())]);
}

/**
 * An S3 bucket that stops answering everything (writes, deletes, listings; reads pass): the S3
 * client's time limits (`storage.s3.connectionTimeout`, `requestTimeout`) end the readiness
 * probe's and the sweeper's requests, so readiness says the storage failed, the sweeper logs a
 * warning and sweeps again once S3 is back, and the gateway serves meanwhile. The bucket is a real
 * S3-compatible server (s3rver) behind a proxy that holds requests on demand.
 */
describe('e2e: the gateway on an S3 bucket that stops answering', function () {
  this.timeout(60_000);
  let folder: string;
  let s3: S3Server;
  let s3Direct: S3Client;
  let proxy: FaultyS3Proxy;
  let gateway: Gateway;
  let apiKey: string;
  let prefix: string;
  const logged: Record<string, unknown>[] = [];

  before(async () => {
    folder = mkdtempSync(join(tmpdir(), 'tts-gateway-stalled-bucket-'));
    s3 = await S3Server.start([BUCKET]);
    s3Direct = s3.client();
    proxy = await FaultyS3Proxy.start(s3.port);
    prefix = `${randomUUID()}/`;
    const logger = recordingWinstonLogger(logged, 'warn');
    const configPath = join(folder, 'gateway.json');
    const s3Section = {
      bucket: BUCKET,
      endpoint: proxy.endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      prefix,
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
      connectionTimeout: REQUEST_TIMEOUT,
      requestTimeout: REQUEST_TIMEOUT,
    };
    writeFileSync(
      configPath,
      JSON.stringify({ database: { url: 'sqlite::memory:' }, storage: { driver: 's3', s3: s3Section, retention: RETENTION, sweepInterval: SWEEP_INTERVAL }, cache: { results: { enabled: false } } }),
    );
    gateway = await composeGateway(await loadConfig({ argv: ['--config', configPath], env: {}, cwd: folder }), { logger });
    await gateway.warmedUp;
    const registered = await request(gateway.app).post('/api/v1/auth/register').send({ email: 'stalled@example.com', password: 'correct horse battery' });
    apiKey = registered.body.data.apiKey as string;
  });

  afterEach(() => {
    proxy.others = 'pass';
  });

  after(async () => {
    await gateway?.close();
    s3Direct?.destroy();
    await proxy?.close();
    await s3?.stop();
    rmSync(folder, { recursive: true, force: true });
  });

  /** Audio objects in the bucket (not the readiness probe's). */
  const objectsStored = async (): Promise<number> =>
    ((await s3Direct.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: prefix }))).Contents ?? []).filter((object) => !object.Key?.startsWith(`${prefix}.probe-`)).length;
  const sweepWarnings = () => logged.filter((entry) => entry.message === 'audio sweep failed; the next sweep tries again');

  /** What still works with the bucket stalled: liveness, and a keyed route on the account database. */
  async function expectServing(): Promise<void> {
    expect((await request(gateway.app).get('/health/live')).status).to.equal(200);
    const models = await request(gateway.app).get('/api/v1/tools/models').set('X-API-Key', apiKey);
    expect(models.status).to.equal(200);
  }

  it('readiness answers 503 naming the audio store, its held S3 requests are let go at the S3 time limit, and it is ready again once S3 answers', async () => {
    expect((await request(gateway.app).get('/health/ready')).status).to.equal(200);
    proxy.others = 'stall';
    const stalledBefore = proxy.othersStalled;
    const ready = await answerWithin(request(gateway.app).get('/health/ready'));
    expect(ready, `an answer within ${BOUND_MS} ms`).to.not.equal(undefined);
    expect(ready!.status).to.equal(503);
    expect(ready!.body.status).to.equal('not ready');
    // The S3 client's own limit (ETIMEDOUT), well within the probe's 2 s (TIMEOUT).
    expect(ready!.body.checks.audioStore).to.deep.equal({ status: 'failed', error: 'failed (ETIMEDOUT)' });
    expect(ready!.body.checks.database).to.deep.equal({ status: 'ok' });
    expect(JSON.stringify(ready!.body)).to.not.include(prefix);
    expect(proxy.othersStalled).to.be.above(stalledBefore);
    // Without S3 time limits the probe's PUT is held for ever, and each probe adds one.
    await eventually(() => void expect(proxy.stalledOthersClosed).to.equal(proxy.othersStalled), 300);
    await expectServing();
    proxy.others = 'pass';
    expect((await request(gateway.app).get('/health/ready')).status).to.equal(200);
  });

  it('the sweeper logs a warning when its listing is held, keeps its interval, and removes expired files once S3 answers again; the gateway serves meanwhile', async () => {
    const synthesized = await request(gateway.app).post('/api/v1/common/tts-sync').set('X-API-Key', apiKey).send({ model: 'espeak-ng', voice: 'en-us', text: 'A file to sweep.', format: 'wav' });
    expect(synthesized.status).to.equal(200);
    expect(await objectsStored()).to.equal(1);
    proxy.others = 'stall';
    const warningsBefore = sweepWarnings().length;
    expect(await holdsWithin(async () => sweepWarnings().length > warningsBefore, BOUND_MS), `a sweep warning within ${BOUND_MS} ms`).to.equal(true);
    const warning = sweepWarnings().at(-1)!;
    expect(warning.level).to.equal('warn');
    expect(warning.nextSweepInMs).to.equal(1000);
    expect(JSON.stringify(warning)).to.not.include(prefix);
    await expectServing();
    proxy.others = 'pass';
    // The file expired meanwhile: a later sweep removes it (a sweep held for ever would have kept every later one from starting).
    expect(await holdsWithin(async () => (await objectsStored()) === 0, BOUND_MS), `the expired file swept within ${BOUND_MS} ms of S3's return`).to.equal(true);
    await eventually(() => void expect(proxy.stalledOthersClosed).to.equal(proxy.othersStalled), 300);
  });
});
