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
import { ScriptedUpstream, step } from '../scripted-upstream';
import { createKey, download, register, revokeKey, synthesize, usage, type Answer } from './gateway-client';
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
  let upstream: ScriptedUpstream;

  before(async () => {
    folder = mkdtempSync(join(tmpdir(), 'tts-gateway-replicas-'));
    const [postgres, redis] = await Promise.all([sharedPostgres(), sharedRedis()]);
    s3 = await S3Server.start([BUCKET]);
    upstream = await ScriptedUpstream.start();
    // Empty services: a new database, a new key prefix in Redis and in the bucket.
    const services = {
      databaseUrl: await postgres.createDatabase('replicas'),
      redisUrl: redis.url,
      redisKeyPrefix: `replicas-${randomUUID()}:`,
      s3Endpoint: s3.endpoint,
      bucket: BUCKET,
      s3Prefix: `${randomUUID()}/`,
      upstreamUrl: upstream.url,
    };
    // Started at the same moment: both migrate the empty database (one waits on the advisory lock).
    [a, b] = await Promise.all([ReplicaProcess.spawn('a', folder, services), ReplicaProcess.spawn('b', folder, services)]);
    await Promise.all([a.listening(), b.listening()]);
  });

  after(async () => {
    await Promise.allSettled([a?.stop(), b?.stop()]);
    await s3?.stop();
    await upstream?.close();
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

  /** Registers an account on `replica` and answers its key. */
  async function account(replica: ReplicaProcess, email: string): Promise<string> {
    const registered = await register(replica.baseUrl, email);
    expect(registered.status, replica.log()).to.equal(200);
    return registered.body.data?.apiKey as string;
  }

  it('rate limits are shared: 4 requests a minute allowed on A and B together, the next refused on either', async () => {
    const limitedKey = await account(b, 'limited@example.com');
    const cli = spawnSync(process.execPath, [join(projectRoot, 'dist', 'server', 'cli.js'), 'accounts', 'set-limits', '--email', 'limited@example.com', '--requests-per-minute', '4', '--config', a.configFile], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '' },
    });
    expect(cli.status, cli.stderr).to.equal(0);
    const allowed: Answer[] = [];
    for (const replica of [a, b, a, b]) allowed.push(await synthesize(replica.baseUrl, limitedKey, `Limited request on ${replica.name}, number ${allowed.length}.`));
    expect(allowed.map((answer) => answer.status)).to.deep.equal([200, 200, 200, 200]);
    expect(allowed.map((answer) => /r=(\d+)/.exec(answer.headers.get('ratelimit') ?? '')?.[1])).to.deep.equal(['3', '2', '1', '0']);
    for (const replica of [a, b]) {
      const refused = await synthesize(replica.baseUrl, limitedKey, 'One too many.');
      expect(refused.status, replica.name).to.equal(429);
      expect(refused.body.error?.code).to.equal('TTS_ERR_RATE_LIMITED');
      expect(Number(refused.headers.get('retry-after'))).to.be.within(1, 60);
      expect(refused.headers.get('ratelimit-policy')).to.equal('"account-minute";q=4;w=60');
    }
  });

  it('cache hits are shared: made on A, a hit on B with its own link, the upstream called once', async () => {
    upstream.script();
    const tts1 = { model: 'tts-1', voice: 'alloy' };
    const made = await synthesize(a.baseUrl, apiKey, 'Made once, served twice.', tts1);
    expect(made.status, a.log()).to.equal(200);
    expect(made.headers.get('x-tts-cache')).to.equal('miss');
    const hit = await synthesize(b.baseUrl, apiKey, 'Made once,   served twice.', tts1);
    expect(hit.status, b.log()).to.equal(200);
    expect(hit.headers.get('x-tts-cache')).to.equal('hit');
    expect(upstream.speechAttempts).to.equal(1);
    expect(hit.body.data!.audio_url).to.not.equal(made.body.data!.audio_url);
    const [original, copy] = await Promise.all([download(b.baseUrl, made.body.data!.audio_url!), download(a.baseUrl, hit.body.data!.audio_url!)]);
    expect(copy.status).to.equal(200);
    expect(copy.bytes.equals(original.bytes)).to.equal(true);
  });

  it('identical requests on A and B at the same time make one upstream call', async () => {
    let answerUpstream!: () => void;
    upstream.script(step.held(new Promise<void>((resolve) => (answerUpstream = resolve))));
    const tts1 = { model: 'tts-1', voice: 'alloy' };
    const answers = Promise.all([a, b].map((replica) => synthesize(replica.baseUrl, apiKey, 'Asked on both replicas at once.', tts1)));
    expect(await within(10_000, async () => upstream.speechAttempts === 1)).to.not.equal(undefined);
    // Gives the other replica's request time to arrive and wait on the lock (the upstream would see it otherwise).
    await new Promise((resolve) => setTimeout(resolve, 300));
    answerUpstream();
    const [fromA, fromB] = await answers;
    expect([fromA.status, fromB.status]).to.deep.equal([200, 200]);
    expect([fromA.headers.get('x-tts-cache'), fromB.headers.get('x-tts-cache')].sort()).to.deep.equal(['hit', 'miss']);
    expect(upstream.speechAttempts).to.equal(1);
  });

  it('usage is shared: GET /api/v1/usage on either replica counts the requests of both', async () => {
    const usageKey = await account(a, 'usage@example.com');
    for (const replica of [a, b, b]) expect((await synthesize(replica.baseUrl, usageKey, `Counted on ${replica.name}.`)).status).to.equal(200);
    for (const replica of [a, b]) {
      // Each replica writes its usage rows once a second.
      const took = await within(5000, async () => {
        const report = await usage(replica.baseUrl, usageKey);
        return (report.body.data?.totals as { requests?: number } | undefined)?.requests === 3;
      });
      expect(took, `usage on ${replica.name}`).to.not.equal(undefined);
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
