import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import type Redis from 'ioredis';
import { createRedisClient, RedisWindowCounters, SynthesisLimiter } from '../../../core';
import { ownRedis, sharedRedis } from '../../support/servers/shared-servers';
import { StallableTcpProxy } from '../../support/servers/stallable-tcp-proxy';
import { eventually } from '../../support/eventually';
import { connected, disconnected, readyClient } from './redis-test-clients';

const CALLER = { accountId: 'account-1', keyId: 'key-1' };
const dailyLimiter = (counters: RedisWindowCounters, charactersPerDay = 100) => new SynthesisLimiter({ limits: { charactersPerDay, perKey: {} }, counters, accountLimits: async () => ({}) });

/** The account's daily count as Redis holds it (its key names the day). */
async function dayCount(admin: Redis, prefix: string): Promise<string | null> {
  const [dayKey] = await admin.keys(`${prefix}limits:86400:cpd:account:*`);
  return dayKey === undefined ? null : admin.get(dayKey);
}

describe('core/redis RedisWindowCounters: what was counted while Redis was away or stalled', function () {
  this.timeout(20_000);
  const clients: Redis[] = [];
  const proxies: StallableTcpProxy[] = [];
  afterEach(async () => {
    for (const client of clients.splice(0)) client.disconnect();
    await Promise.all(proxies.splice(0).map((proxy) => proxy.close()));
  });

  async function client(url: string): Promise<Redis> {
    const ready = await readyClient(url, undefined, 'redis (limits)');
    clients.push(ready);
    return ready;
  }

  it('adds what each replica counted during an outage into the shared count when Redis returns, less the refunds', async () => {
    const redis = await ownRedis();
    const prefix = `${randomUUID()}:`;
    const [clientA, clientB] = [await client(redis.url), await client(redis.url)];
    const [countersA, countersB] = [new RedisWindowCounters(clientA, prefix), new RedisWindowCounters(clientB, prefix)];
    const [a, b] = [dailyLimiter(countersA), dailyLimiter(countersB)];
    expect((await a.admit(CALLER, 20)).refusal).to.equal(undefined);
    await redis.stop();
    await Promise.all([disconnected(clientA), disconnected(clientB)]);
    // Each replica counts on its own meanwhile, from zero: 50 + 30 characters, and 10 refunded.
    expect((await a.admit(CALLER, 50)).refusal).to.equal(undefined);
    expect((await b.admit(CALLER, 30)).refusal).to.equal(undefined);
    await (await b.admit(CALLER, 10)).refundCharacters();
    await redis.resume();
    await Promise.all([connected(clientA), connected(clientB)]);
    // The restarted Redis lost the 20 counted before; the outage's 80 are in the shared count again.
    await eventually(async () => void expect((await a.admit(CALLER, 0)).limits[0].remaining).to.equal(20));
    expect((await b.admit(CALLER, 21)).refusal?.status).to.equal(429);
    expect((await b.admit(CALLER, 20)).refusal).to.equal(undefined);
  });

  it('a request counted during an outage and refunded after Redis returned is refunded in Redis, where its characters were carried', async () => {
    const redis = await ownRedis();
    const prefix = `${randomUUID()}:`;
    const limitsClient = await client(redis.url);
    const admin = await client(redis.url);
    const limiter = dailyLimiter(new RedisWindowCounters(limitsClient, prefix));
    await redis.stop();
    await Promise.all([disconnected(limitsClient), disconnected(admin)]);
    const verdict = await limiter.admit(CALLER, 40);
    expect(verdict.refusal).to.equal(undefined);
    await redis.resume();
    await Promise.all([connected(limitsClient), connected(admin)]);
    await eventually(async () => void expect(await dayCount(admin, prefix)).to.equal('40'));
    await verdict.refundCharacters();
    expect(await dayCount(admin, prefix)).to.equal('0');
  });

  it('a request admitted while Redis stalls and refunded is not left counted in the shared count once Redis catches up', async () => {
    const { url } = await sharedRedis();
    const proxy = await StallableTcpProxy.start(Number(new URL(url).port));
    proxies.push(proxy);
    const prefix = `${randomUUID()}:`;
    const stalling = await client(`redis://127.0.0.1:${proxy.port}`);
    const limiter = dailyLimiter(new RedisWindowCounters(stalling, prefix));
    const admin = createRedisClient(url, { queueWhileDisconnected: true, role: 'test admin' });
    clients.push(admin);
    proxy.stall();
    // Sent to a Redis that does not answer in time: decided in memory meanwhile.
    const verdict = await limiter.admit(CALLER, 70);
    expect(verdict.refusal).to.equal(undefined);
    expect(stalling.status).to.equal('ready');
    // The request fails: its characters are given back.
    await verdict.refundCharacters();
    proxy.resume();
    // Redis ran the held script; the refund must have reached it too.
    await eventually(async () => void expect(await dayCount(admin, prefix)).to.equal('0'));
  });

  it('a refund of a request counted in Redis, made while Redis is away, reaches Redis when it returns', async () => {
    const { url } = await sharedRedis();
    const proxy = await StallableTcpProxy.start(Number(new URL(url).port));
    proxies.push(proxy);
    const prefix = `${randomUUID()}:`;
    const viaProxy = await client(`redis://127.0.0.1:${proxy.port}`);
    const limiter = dailyLimiter(new RedisWindowCounters(viaProxy, prefix));
    const admin = await client(url);
    const verdict = await limiter.admit(CALLER, 70);
    expect(await dayCount(admin, prefix)).to.equal('70');
    // The connection is lost (Redis keeps its counts): the refund cannot be sent now.
    proxy.cutConnections();
    proxy.stall();
    await disconnected(viaProxy);
    // (The request path never waits on a refund: the middleware drops its failure.)
    await verdict.refundCharacters().catch(() => undefined);
    proxy.resume();
    await connected(viaProxy);
    await eventually(async () => void expect(await dayCount(admin, prefix)).to.equal('0'));
  });

  /** A daily quota of 100 characters over a Redis of its own; `database.stored` is what the usage rows hold for the day (the counters' opening count). */
  async function dailyLimiterOnOwnRedis() {
    const redis = await ownRedis();
    const counters = new RedisWindowCounters(await client(redis.url), `${randomUUID()}:`);
    const database = { stored: 0 };
    const limiter = new SynthesisLimiter({
      limits: { charactersPerDay: 100, perKey: {} },
      counters,
      accountLimits: async () => ({}),
      storedCharacters: async () => new Map([[CALLER.keyId, database.stored]]),
    });
    return { redis, limiter, database };
  }

  it('a daily count that a restarted Redis lost opens again from the characters the database holds by then, not from those read in the morning', async () => {
    const { redis, limiter, database } = await dailyLimiterOnOwnRedis();
    expect((await limiter.admit(CALLER, 90)).refusal).to.equal(undefined);
    database.stored = 90;
    await redis.stop();
    await disconnected(clients[0]);
    await redis.resume();
    await connected(clients[0]);
    // Redis lost the day's 90: the window opens again with the database's 90, not the morning's 0.
    expect((await limiter.admit(CALLER, 20)).refusal?.status).to.equal(429);
  });

  it('an outage of a daily count that Redis lost is not counted twice: the database holds its requests too', async () => {
    const { redis, limiter, database } = await dailyLimiterOnOwnRedis();
    expect((await limiter.admit(CALLER, 30)).refusal).to.equal(undefined);
    database.stored = 30;
    await redis.stop();
    await disconnected(clients[0]);
    expect((await limiter.admit(CALLER, 40)).refusal).to.equal(undefined);
    database.stored = 70;
    await redis.resume();
    await connected(clients[0]);
    // 70 used in all: 30 left, on this replica as on any other.
    const next = await limiter.admit(CALLER, 0);
    expect(next.limits[0].remaining).to.equal(30);
  });
});
