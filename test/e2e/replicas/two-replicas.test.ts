import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import request from 'supertest';
import { join } from 'node:path';
import { projectRoot } from '../../support/paths';
import { S3Server } from '../../support/servers/s3-server';
import { sharedPostgres, sharedRedis } from '../../support/servers/shared-servers';
import { createKey, download, register, revokeKey, synthesize, type Answer } from './gateway-client';
import { ReplicaProcess } from './replica-process';

const BUCKET = 'tts-audio-replicas';

/** A whole WAV file: RIFF size and data chunk size agree with the bytes received. */
function isWholeWav(bytes: Buffer): boolean {
  if (bytes.length < 44 || bytes.toString('ascii', 0, 4) !== 'RIFF' || bytes.toString('ascii', 8, 12) !== 'WAVE') return false;
  if (bytes.readUInt32LE(4) !== bytes.length - 8) return false;
  let offset = 12;
  while (offset + 8 <= bytes.length) {
    const size = bytes.readUInt32LE(offset + 4);
    if (bytes.toString('ascii', offset, offset + 4) === 'data') return offset + 8 + size === bytes.length && size > 0;
    offset += 8 + size + (size % 2);
  }
  return false;
}

/** Polls until `check` holds, at most `limitMs`; answers how long it took, or undefined. */
async function within(limitMs: number, check: () => Promise<boolean>): Promise<number | undefined> {
  const started = Date.now();
  while (Date.now() - started <= limitMs) {
    if (await check()) return Date.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return undefined;
}

describe('e2e: two replicas on PostgreSQL + Redis + S3 (s3rver)', function () {
  this.timeout(180_000);
  let folder: string;
  let s3: S3Server;
  let a: ReplicaProcess;
  let b: ReplicaProcess;

  before(async () => {
    folder = mkdtempSync(join(tmpdir(), 'tts-gateway-replicas-'));
    const [postgres, redis] = await Promise.all([sharedPostgres(), sharedRedis()]);
    s3 = await S3Server.start([BUCKET]);
    // Empty services: a new database, a new key prefix in Redis and in the bucket.
    const services = {
      databaseUrl: await postgres.createDatabase('replicas'),
      redisUrl: redis.url,
      redisKeyPrefix: `replicas-${randomUUID()}:`,
      s3Endpoint: s3.endpoint,
      bucket: BUCKET,
      s3Prefix: `${randomUUID()}/`,
    };
    // Started at the same moment: both migrate the empty database (one waits on the advisory lock).
    [a, b] = await Promise.all([ReplicaProcess.spawn('a', folder, services), ReplicaProcess.spawn('b', folder, services)]);
    await Promise.all([a.listening(), b.listening()]);
  });

  after(async () => {
    await Promise.allSettled([a?.stop(), b?.stop()]);
    await s3?.stop();
    rmSync(folder, { recursive: true, force: true });
  });

  let apiKey: string;

  it('registers on A, synthesizes on B, downloads from A (whole and by range)', async () => {
    const registered = await register(a.baseUrl, 'replica.user@example.com');
    expect(registered.status, a.log()).to.equal(200);
    apiKey = registered.body.data?.apiKey as string;
    const made = await synthesize(b.baseUrl, apiKey, 'Hello from replica B.');
    expect(made.status, b.log()).to.equal(200);
    const file = await download(a.baseUrl, made.body.data!.audio_url!);
    expect(file.status).to.equal(200);
    expect(file.bytes.length).to.equal(made.body.data!.file_size);
    expect(isWholeWav(file.bytes)).to.equal(true);
    expect(file.headers.get('etag')).to.match(/^"[A-Za-z0-9_-]{27}"$/);
    const part = await download(a.baseUrl, made.body.data!.audio_url!, { range: 'bytes=0-43' });
    expect(part.status).to.equal(206);
    expect(part.bytes.equals(file.bytes.subarray(0, 44))).to.equal(true);
    // Same file, same ETag, whichever replica serves it.
    // (supertest: fetch adds Cache-Control: no-cache to conditional requests, which rightly bypasses 304.)
    const fromB = await request(b.baseUrl).get(new URL(made.body.data!.audio_url!).pathname).set('If-None-Match', file.headers.get('etag') as string);
    expect(fromB.status).to.equal(304);
  });

  it('a key revoked on B is refused on A within a second, though A had just used it', async () => {
    const second = await createKey(a.baseUrl, apiKey, 'to revoke');
    const secondKey = second.body.data?.apiKey as string;
    expect((await synthesize(a.baseUrl, secondKey, 'Cached on A.')).status).to.equal(200);
    const revoked = await revokeKey(b.baseUrl, apiKey, second.body.data?.id as string);
    expect(revoked.status).to.equal(200);
    const took = await within(1000, async () => (await synthesize(a.baseUrl, secondKey, 'Still allowed?')).status === 401);
    expect(took, 'A still accepted the revoked key after a second').to.not.equal(undefined);
  });

  it('a key revoked with the CLI is refused by both running replicas within a second', async () => {
    const third = await createKey(a.baseUrl, apiKey, 'revoked by the operator');
    const thirdKey = third.body.data?.apiKey as string;
    for (const replica of [a, b]) expect((await synthesize(replica.baseUrl, thirdKey, 'Cached here.')).status).to.equal(200);
    const cli = spawnSync(process.execPath, [join(projectRoot, 'dist', 'server', 'cli.js'), 'keys', 'revoke', '--email', 'replica.user@example.com', '--id', third.body.data?.id as string, '--config', a.configFile], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '' },
    });
    expect(cli.status, cli.stderr).to.equal(0);
    expect(cli.stdout).to.include(`Revoked ${third.body.data?.id}`);
    for (const replica of [a, b]) {
      const took = await within(1000, async () => (await synthesize(replica.baseUrl, thirdKey, 'Still allowed?')).status === 401);
      expect(took, `replica ${replica.name} still accepted the key`).to.not.equal(undefined);
    }
  });

  it('kill -9 of A in a burst: B keeps serving, and every file A acknowledged downloads whole from B', async () => {
    const acknowledgedByA: Answer[] = [];
    const answersFromB: Answer[] = [];
    let killed: Promise<void> | undefined;
    const burst = Array.from({ length: 24 }, (_, index) => {
      const replica = index % 2 === 0 ? a : b;
      const text = `Burst request number ${index}, with a sentence of its own.`;
      return synthesize(replica.baseUrl, apiKey, text).then(
        (answer) => {
          if (replica === a && answer.status === 200) {
            acknowledgedByA.push(answer);
            // Mid-burst: A dies once it has answered a few, with the rest of its requests in flight.
            if (acknowledgedByA.length === 3) killed = a.killHard();
          }
          if (replica === b) answersFromB.push(answer);
        },
        () => undefined,
      );
    });
    await Promise.all(burst);
    await killed;
    expect(killed, 'A was never killed: it acknowledged fewer than 3 requests').to.not.equal(undefined);
    expect(answersFromB.map((answer) => answer.status)).to.deep.equal(Array(12).fill(200));
    // B goes on serving new requests.
    expect((await synthesize(b.baseUrl, apiKey, 'After the crash.')).status).to.equal(200);
    for (const answer of acknowledgedByA) {
      const file = await download(b.baseUrl, answer.body.data!.audio_url!);
      expect(file.status).to.equal(200);
      expect(file.bytes.length).to.equal(answer.body.data!.file_size);
      expect(isWholeWav(file.bytes)).to.equal(true);
    }
  });
});
