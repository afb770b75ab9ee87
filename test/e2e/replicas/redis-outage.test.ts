import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { loadConfig } from '../../../config';
import { composeGateway, type Gateway } from '../../../server/composition-root';
import { eventually } from '../../support/eventually';
import { S3Server } from '../../support/servers/s3-server';
import { ownRedis, sharedPostgres } from '../../support/servers/shared-servers';
import type { RedisServer } from '../../support/servers/redis-server';
import { ScriptedUpstream } from '../scripted-upstream';
import { recordingWinstonLogger } from '../../support/recording-winston-logger';
import { readyClient } from '../../core/redis/redis-test-clients';

const BUCKET = 'tts-audio-outage';
/** The role of the request-path connection in its log lines. */
const REQUEST_PATH = 'redis (limits, result cache)';

/** A gateway composed in this process as one replica, with what it logged. */
interface Replica {
  readonly gateway: Gateway;
  readonly logged: { level: string; message: string }[];
}

async function composeReplica(folder: string, name: string, sections: Record<string, unknown>): Promise<Replica> {
  const logged: { level: string; message: string }[] = [];
  const logger = recordingWinstonLogger(logged, 'info');
  const configPath = join(folder, `${name}.json`);
  writeFileSync(configPath, JSON.stringify(sections));
  const config = await loadConfig({ argv: ['--config', configPath], env: {}, cwd: folder });
  return { gateway: await composeGateway(config, { logger }), logged };
}

const warningsAbout = (replica: Replica, role: string) => replica.logged.filter((line) => line.level === 'warn' && line.message.startsWith(`${role}: Redis is unreachable`));
const backAgain = (replica: Replica, role: string) => replica.logged.filter((line) => line.message === `${role}: Redis is back`);

describe('e2e: replicas while Redis is stopped and started again', function () {
  this.timeout(120_000);
  let folder: string;
  let redis: RedisServer;
  let s3: S3Server;
  let upstream: ScriptedUpstream;
  let a: Replica;
  let b: Replica;
  let apiKey: string;
  const keyPrefix = `outage-${randomUUID()}:`;

  before(async () => {
    folder = mkdtempSync(join(tmpdir(), 'tts-gateway-outage-'));
    [redis, s3, upstream] = await Promise.all([ownRedis(), S3Server.start([BUCKET]), ScriptedUpstream.start()]);
    const sections = {
      server: { publicBaseUrl: 'http://gateway.test' },
      database: { url: await (await sharedPostgres()).createDatabase('outage') },
      storage: { driver: 's3', s3: { bucket: BUCKET, endpoint: s3.endpoint, region: 'us-east-1', forcePathStyle: true, prefix: `${randomUUID()}/`, accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } },
      redis: { url: redis.url, keyPrefix },
      limits: { requestsPerMinute: 3 },
      providers: [{ plugin: 'openai-compatible', id: 'stand-in', options: { baseUrl: upstream.url, models: ['tts-1'], voices: ['alloy'], formats: ['mp3', 'wav'] } }],
    };
    a = await composeReplica(folder, 'a', sections);
    b = await composeReplica(folder, 'b', sections);
    const registered = await request(a.gateway.app).post('/api/v1/auth/register').send({ email: 'outage@example.com', password: 'correct horse battery' });
    apiKey = registered.body.data.apiKey as string;
  });

  after(async () => {
    await Promise.allSettled([a?.gateway.close(), b?.gateway.close()]);
    await Promise.allSettled([s3?.stop(), upstream?.close(), redis?.stop()]);
    rmSync(folder, { recursive: true, force: true });
  });

  const synthesize = (replica: Replica, text: string) =>
    request(replica.gateway.app).post('/api/v1/common/tts-sync').set('X-API-Key', apiKey).send({ model: 'tts-1', voice: 'alloy', text, format: 'mp3' });

  it('serves every request while Redis is away (limits open, cache bypassed, one warning), and enforces the shared limit again once it is back, with the requests counted meanwhile', async () => {
    // With Redis: 3 requests a minute for A and B together, and one shared cache.
    expect((await synthesize(a, 'Cached before the outage.')).headers['x-tts-cache']).to.equal('miss');
    expect((await synthesize(b, 'Cached before the outage.')).headers['x-tts-cache']).to.equal('hit');
    expect((await synthesize(a, 'Third.')).status).to.equal(200);
    expect((await synthesize(b, 'Over the limit.')).status).to.equal(429);
    expect(upstream.speechAttempts).to.equal(2);

    await redis.stop();
    await eventually(() => {
      for (const replica of [a, b]) expect(warningsAbout(replica, REQUEST_PATH)).to.have.length(1);
    }, 500);
    const during = [];
    for (const replica of [a, b, a, b]) during.push(await synthesize(replica, 'Asked during the outage.'));
    expect(during.map((answer) => answer.status)).to.deep.equal([200, 200, 200, 200]);
    // No shared index: each request is synthesized.
    expect(during.map((answer) => answer.headers['x-tts-cache'])).to.deep.equal(['miss', 'miss', 'miss', 'miss']);
    expect(upstream.speechAttempts).to.equal(6);
    // One warning per replica for the whole outage, not one per request.
    for (const replica of [a, b]) expect(warningsAbout(replica, REQUEST_PATH)).to.have.length(1);

    await redis.resume();
    await eventually(() => {
      for (const replica of [a, b]) expect(backAgain(replica, REQUEST_PATH)).to.have.length(1);
    }, 500);
    // The restarted Redis is empty, but each replica carries into it the 2 requests it counted
    // meanwhile: the minute's shared count is 4 of 3, and the next request is refused on either.
    const admin = await readyClient(redis.url);
    try {
      await eventually(async () => {
        const [minuteKey] = await admin.keys(`${keyPrefix}limits:60:rpm:account:*`);
        expect(minuteKey && (await admin.get(minuteKey))).to.equal('4');
      });
    } finally {
      admin.disconnect();
    }
    for (const replica of [a, b]) {
      const refused = await synthesize(replica, 'Over the limit again.');
      expect(refused.status).to.equal(429);
      expect(refused.headers['ratelimit-policy']).to.equal('"account-minute";q=3;w=60');
    }
    expect(upstream.speechAttempts).to.equal(6);
    expect(warningsAbout(a, REQUEST_PATH).concat(warningsAbout(b, REQUEST_PATH))).to.have.length(2);
  });
});
