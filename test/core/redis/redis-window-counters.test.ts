import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import type Redis from 'ioredis';
import { RedisWindowCounters, SynthesisLimiter } from '../../../core';
import { ownRedis, sharedRedis } from '../../support/servers/shared-servers';
import { eventually } from '../../support/eventually';
import { connected, disconnected, readyClient, recordingLogger } from './redis-test-clients';

describe('core/redis RedisWindowCounters', () => {
  const clients: Redis[] = [];
  afterEach(() => {
    for (const client of clients.splice(0)) client.disconnect();
  });

  async function replicaCounters(url: string, prefix: string, logger?: ReturnType<typeof recordingLogger>): Promise<RedisWindowCounters> {
    const client = await readyClient(url, logger, 'redis (limits)');
    clients.push(client);
    return new RedisWindowCounters(client, prefix);
  }

  it('counts across replicas: adds, takes back, peeks and resets one shared window', async () => {
    const { url } = await sharedRedis();
    const prefix = `${randomUUID()}:`;
    const [a, b] = await Promise.all([replicaCounters(url, prefix), replicaCounters(url, prefix)]);
    expect((await a.add('rpm:account:1', 1, 60)).count).to.equal(1);
    const second = await b.add('rpm:account:1', 2, 60);
    expect(second.count).to.equal(3);
    expect(second.msBeforeReset).to.be.within(1, 60_000);
    await a.subtract('rpm:account:1', 1, 60);
    expect((await b.peek('rpm:account:1', 60)).count).to.equal(2);
    // Another window length is another counter; another prefix another gateway.
    expect((await a.peek('rpm:account:1', 3600)).count).to.equal(0);
    expect((await (await replicaCounters(url, `${randomUUID()}:`)).peek('rpm:account:1', 60)).count).to.equal(0);
    await b.reset('rpm:account:1', 60);
    expect(await a.peek('rpm:account:1', 60)).to.deep.equal({ count: 0, msBeforeReset: 0 });
  });

  it('a limit of N requests holds for the replicas together: the next one is refused on either', async () => {
    const { url } = await sharedRedis();
    const prefix = `${randomUUID()}:`;
    const limiterOn = (counters: RedisWindowCounters) => new SynthesisLimiter({ limits: { requestsPerMinute: 3, perKey: {} }, counters, accountLimits: async () => ({}) });
    const [a, b] = (await Promise.all([replicaCounters(url, prefix), replicaCounters(url, prefix)])).map(limiterOn);
    const caller = { accountId: 'account-1', keyId: 'key-1' };
    const allowed = [await a.admit(caller, 5), await b.admit(caller, 5), await a.admit(caller, 5)];
    expect(allowed.map((verdict) => verdict.refusal)).to.deep.equal([undefined, undefined, undefined]);
    expect(allowed.map((verdict) => verdict.limits[0].remaining)).to.deep.equal([2, 1, 0]);
    for (const replica of [a, b]) {
      const refused = await replica.admit(caller, 5);
      expect(refused.refusal?.status).to.equal(429);
      expect(refused.refusal?.retryAfterSeconds).to.be.within(1, 60);
    }
  });

  it('fails open while Redis is away (counted in memory, one warning), and counts in Redis again once it is back', async () => {
    const redis = await ownRedis();
    const prefix = `${randomUUID()}:`;
    const logger = recordingLogger();
    const a = await replicaCounters(redis.url, prefix, logger);
    const b = await replicaCounters(redis.url, prefix);
    const [clientA, clientB] = clients.slice(-2);
    await a.add('rpm:account:1', 5, 60);
    await redis.stop();
    await Promise.all([disconnected(clientA), disconnected(clientB)]);
    await eventually(() => {
      expect(logger.warnings).to.have.length(1);
    }, 500);
    // Served from the insurance limiter in this process's memory: it starts from zero.
    for (let request = 1; request <= 20; request += 1) expect((await a.add('rpm:account:1', 1, 60)).count).to.equal(request);
    await a.subtract('rpm:account:1', 1, 60);
    expect((await a.peek('rpm:account:1', 60)).count).to.equal(19);
    expect(logger.warnings.filter((message) => message.includes('Redis is unreachable'))).to.have.length(1);
    await redis.resume();
    await Promise.all([connected(clientA), connected(clientB)]);
    // The restarted Redis is empty: what A counted meanwhile is carried into it, and both replicas count in it together again.
    await eventually(async () => void expect((await b.peek('rpm:account:1', 60)).count).to.equal(19));
    expect((await a.add('rpm:account:1', 1, 60)).count).to.equal(20);
    expect((await b.add('rpm:account:1', 1, 60)).count).to.equal(21);
    expect(logger.infos.filter((message) => message.includes('Redis is back'))).to.have.length(1);
  });

  it('adds within quotas in one step across replicas: large requests refused together with small ones never push them out', async () => {
    const { url } = await sharedRedis();
    const prefix = `${randomUUID()}:`;
    const limiterOn = (counters: RedisWindowCounters) => new SynthesisLimiter({ limits: { charactersPerDay: 100, perKey: { requestsPerMinute: 30 } }, counters, accountLimits: async () => ({}) });
    const [a, b] = (await Promise.all([replicaCounters(url, prefix), replicaCounters(url, prefix)])).map(limiterOn);
    const caller = { accountId: 'account-1', keyId: 'key-1' };
    // Ten of 10 characters fit the day exactly; ten of 101 never fit. Interleaved over both replicas.
    const verdicts = await Promise.all(Array.from({ length: 20 }, (_, index) => (index % 2 === 0 ? a : b).admit(caller, index % 4 < 2 ? 10 : 101)));
    const admitted = verdicts.filter((verdict, index) => verdict.refusal === undefined && index % 4 < 2);
    const refusedSmall = verdicts.filter((verdict, index) => verdict.refusal !== undefined && index % 4 < 2);
    const admittedLarge = verdicts.filter((verdict, index) => verdict.refusal === undefined && index % 4 >= 2);
    expect([admitted.length, refusedSmall.length, admittedLarge.length]).to.deep.equal([10, 0, 0]);
    // Only the admitted ten were counted, for the characters and for the key's requests.
    const next = await a.admit(caller, 0);
    expect(next.limits.map((limit) => [limit.name, limit.remaining])).to.deep.equal([
      ['account-day', 0],
      ['key-minute', 19],
    ]);
  });

  it('refunds a request in the store that counted it: one admitted in Redis is not refunded in memory during an outage', async () => {
    const redis = await ownRedis();
    const counters = await replicaCounters(redis.url, `${randomUUID()}:`);
    const limiter = new SynthesisLimiter({ limits: { charactersPerDay: 100, perKey: {} }, counters, accountLimits: async () => ({}) });
    const caller = { accountId: 'account-1', keyId: 'key-1' };
    const inRedis = await limiter.admit(caller, 70);
    expect(inRedis.refusal).to.equal(undefined);
    await redis.stop();
    await disconnected(clients[clients.length - 1]);
    // Counted in this process's memory meanwhile, from zero.
    expect((await limiter.admit(caller, 60)).limits[0].remaining).to.equal(40);
    // The request admitted in Redis fails now: its refund cannot reach Redis, and is not taken from memory.
    await inRedis.refundCharacters().catch(() => undefined);
    expect((await limiter.admit(caller, 41)).refusal?.status).to.equal(429);
    expect((await limiter.admit(caller, 40)).refusal).to.equal(undefined);
    await redis.resume();
  });

  it('gives a counter found without an expiry one even when it refuses, so that a full window still ends', async () => {
    const { url } = await sharedRedis();
    const prefix = `${randomUUID()}:`;
    const counters = await replicaCounters(url, prefix);
    const admin = await readyClient(url);
    clients.push(admin);
    // A count left without a TTL (a manual SET, a restore, another tool under the same prefix).
    await admin.set(`${prefix}limits:60:rpm:account:account-1`, '3');
    const limiter = new SynthesisLimiter({ limits: { requestsPerMinute: 3, perKey: {} }, counters, accountLimits: async () => ({}) });
    const refused = await limiter.admit({ accountId: 'account-1', keyId: 'key-1' }, 5);
    expect(refused.refusal?.retryAfterSeconds).to.equal(60);
    // Retry-After promises the window ends within 60 s: the key must expire by then.
    expect(await admin.pttl(`${prefix}limits:60:rpm:account:account-1`)).to.be.within(1, 60_000);
  });

  it('opens a window with its opening count (a day used before a restart) and keeps an open window’s own, across replicas', async () => {
    const { url } = await sharedRedis();
    const prefix = `${randomUUID()}:`;
    const [a, b] = await Promise.all([replicaCounters(url, prefix), replicaCounters(url, prefix)]);
    const addition = { key: 'cpd:account:1:2025-03-01', windowSeconds: 86_400, quota: 100 };
    const refused = await a.addWithinQuotas([{ ...addition, points: 30, openingCount: 80 }]);
    expect(refused.added).to.equal(false);
    expect(refused.counts[0].count).to.equal(80);
    const opened = await a.addWithinQuotas([{ ...addition, points: 15, openingCount: 80 }]);
    expect(opened.counts[0].count).to.equal(95);
    expect(opened.counts[0].msBeforeReset).to.be.within(1, 86_400_000);
    // Another replica's opening count (read later, or earlier) does not replace the shared count.
    expect((await b.addWithinQuotas([{ ...addition, points: 5, openingCount: 10 }])).counts[0].count).to.equal(100);
  });
});
