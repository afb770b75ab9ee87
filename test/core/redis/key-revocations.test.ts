import { expect } from 'chai';
import { AccountService, openAccountStore, RedisKeyRevocations, type AccountStore } from '../../../core';
import { ownRedis, sharedPostgres, sharedRedis } from '../../support/servers/shared-servers';
import type { RedisServer } from '../../support/servers/redis-server';
import { holdsWithin } from '../../support/eventually';
import { StallableTcpProxy } from '../../support/servers/stallable-tcp-proxy';
import { HEARTBEAT_MS } from '../../../core/redis/redis-heartbeat';

const FAST_SCRYPT = { cost: 1024, blockSize: 8, parallelization: 1 };
/** Long enough that only a broadcast can explain a replica dropping a key in the test. */
const LONG_CACHE_MS = 600_000;

interface Replica {
  readonly accounts: AccountService;
  readonly revocations: RedisKeyRevocations;
  readonly store: AccountStore;
}

async function replica(databaseUrl: string, redisUrl: string, keyPrefix: string): Promise<Replica> {
  const store = await openAccountStore(databaseUrl);
  const revocations = new RedisKeyRevocations({ url: redisUrl, keyPrefix });
  const accounts = new AccountService(store, { registration: 'open', scrypt: FAST_SCRYPT, keyCacheTtlMs: LONG_CACHE_MS, revocations });
  await revocations.subscribed();
  return { accounts, revocations, store };
}

/** Cuts A's connections and holds its new ones unanswered: Redis unreachable from A only, until `proxy.resume()`. */
async function cutOff(proxy: StallableTcpProxy, revocations: RedisKeyRevocations): Promise<void> {
  const publisher = (revocations as unknown as { publisher: { status: string } }).publisher;
  proxy.cutConnections();
  proxy.stall();
  expect(await holdsWithin(async () => publisher.status !== 'ready', 5000)).to.equal(true);
}

const refuses = (accounts: AccountService, apiKey: string) => (): Promise<boolean> =>
  accounts.authenticate(apiKey).then(
    () => false,
    (error: { code?: string }) => error.code === 'TTS_ERR_UNAUTHORIZED',
  );

describe('core/redis key revocations across replicas (PostgreSQL + Redis)', () => {
  let replicas: Replica[] = [];
  afterEach(async () => {
    await Promise.all(replicas.flatMap((each) => [each.revocations.close(), each.store.close()]));
    replicas = [];
  });

  async function twoReplicas(redisUrl: string, name: string): Promise<[Replica, Replica]> {
    const databaseUrl = await (await sharedPostgres()).createDatabase(name);
    const [first, second] = await Promise.all([replica(databaseUrl, redisUrl, `${name}:`), replica(databaseUrl, redisUrl, `${name}:`)]);
    replicas.push(first, second);
    return [first, second];
  }

  it('a key revoked on one replica is refused by the other within a second, though it had cached it', async () => {
    const [a, b] = await twoReplicas((await sharedRedis()).url, 'revoke');
    const { account, apiKey } = await a.accounts.register('ada@example.com', 'correct horse battery');
    expect((await b.accounts.authenticate(apiKey.apiKey)).account.id).to.equal(account.id);
    await a.accounts.revokeKey(account.id, apiKey.id);
    expect(await refuses(a.accounts, apiKey.apiKey)()).to.equal(true);
    expect(await holdsWithin(refuses(b.accounts, apiKey.apiKey), 1000)).to.equal(true);
  });

  it('keeps serving while Redis is away, and hears revocations again once it is back', async () => {
    const redis: RedisServer = await ownRedis();
    const [a, b] = await twoReplicas(redis.url, 'outage');
    const first = await a.accounts.register('grace@example.com', 'correct horse battery');
    const second = await a.accounts.createKey(first.account.id, 'second');
    await b.accounts.authenticate(first.apiKey.apiKey);
    await redis.stop();
    // Requests go on: cached keys and the database answer without Redis.
    expect((await b.accounts.authenticate(first.apiKey.apiKey)).keyId).to.equal(first.apiKey.id);
    expect((await b.accounts.authenticate(second.apiKey)).keyId).to.equal(second.id);
    // A revocation during the outage works where it is made, and does not throw.
    await a.accounts.revokeKey(first.account.id, first.apiKey.id);
    expect(await refuses(a.accounts, first.apiKey.apiKey)()).to.equal(true);
    await redis.resume();
    await Promise.all([a.revocations.subscribed(), b.revocations.subscribed()]);
    // Back: the replica that may have missed announcements dropped its cache.
    expect(await holdsWithin(refuses(b.accounts, first.apiKey.apiKey), 5000)).to.equal(true);
    expect(await holdsWithin(async () => (await b.accounts.authenticate(second.apiKey).then(() => true, () => false)), 1000)).to.equal(true);
    // And announcements flow again.
    await b.accounts.authenticate(second.apiKey);
    await a.accounts.revokeKey(first.account.id, second.id);
    expect(await holdsWithin(refuses(b.accounts, second.apiKey), 3000)).to.equal(true);
  });

  it('while its subscription is down, reads keys from the database: a key revoked on another replica meanwhile is refused at once', async () => {
    const redis: RedisServer = await ownRedis();
    const [a, b] = await twoReplicas(redis.url, 'gap');
    const { account, apiKey } = await a.accounts.register('gap@example.com', 'correct horse battery');
    expect((await b.accounts.authenticate(apiKey.apiKey)).keyId).to.equal(apiKey.id);
    const subscriberOfB = (b.revocations as unknown as { subscriber: { status: string } }).subscriber;
    await redis.stop();
    expect(await holdsWithin(async () => subscriberOfB.status !== 'ready', 5000)).to.equal(true);
    // Revoked on A during the gap: the announcement cannot reach B, whose cache still holds the key.
    await a.accounts.revokeKey(account.id, apiKey.id);
    expect(await refuses(b.accounts, apiKey.apiKey)()).to.equal(true);
    await redis.resume();
  });

  it('notices a subscription whose network silently stopped passing packets, and refuses a key revoked meanwhile', async () => {
    const redis = await sharedRedis();
    const proxy = await StallableTcpProxy.start(redis.port);
    try {
      const databaseUrl = await (await sharedPostgres()).createDatabase('silent');
      const a = await replica(databaseUrl, redis.url, 'silent:');
      const b = await replica(databaseUrl, `redis://127.0.0.1:${proxy.port}`, 'silent:');
      replicas.push(a, b);
      const { account, apiKey } = await a.accounts.register('silent@example.com', 'correct horse battery');
      expect((await b.accounts.authenticate(apiKey.apiKey)).keyId).to.equal(apiKey.id);
      // B's connections stay open but nothing passes: no close, no error, as on a dropped NAT entry.
      proxy.stall();
      await a.accounts.revokeKey(account.id, apiKey.id);
      expect(await holdsWithin(refuses(b.accounts, apiKey.apiKey), 3 * HEARTBEAT_MS)).to.equal(true);
    } finally {
      await proxy.close();
    }
  });

  it('drops its key cache after its first Redis outage too, when it began to listen on a connection already up (as the gateway does, after loading its providers)', async () => {
    const redis: RedisServer = await ownRedis();
    const revocations = new RedisKeyRevocations({ url: redis.url, keyPrefix: 'late-listener:' });
    replicas.push({ revocations, store: { close: async () => undefined } as AccountStore } as Replica);
    const subscriber = (revocations as unknown as { subscriber: { status: string } }).subscriber;
    expect(await holdsWithin(async () => subscriber.status === 'ready', 5000)).to.equal(true);
    let missed = 0;
    revocations.listen({ onRevoked: () => undefined, onMissed: () => (missed += 1) });
    await revocations.subscribed();
    await redis.stop();
    await redis.resume();
    // Announcements made while it was away are lost: its cache must go.
    expect(await holdsWithin(async () => missed === 1, 5000)).to.equal(true);
  });

  it('announces a revocation whose publishing failed once its publisher is connected again, so the other replicas refuse the key long before their cache entry expires', async () => {
    const redis = await sharedRedis();
    const proxy = await StallableTcpProxy.start(redis.port);
    try {
      const databaseUrl = await (await sharedPostgres()).createDatabase('unsent');
      const a = await replica(databaseUrl, `redis://127.0.0.1:${proxy.port}`, 'unsent:');
      const b = await replica(databaseUrl, redis.url, 'unsent:');
      replicas.push(a, b);
      const { account, apiKey } = await a.accounts.register('unsent@example.com', 'correct horse battery');
      expect((await b.accounts.authenticate(apiKey.apiKey)).keyId).to.equal(apiKey.id);
      await cutOff(proxy, a.revocations);
      // Revoked on A while only A is away from Redis: B, still listening, trusts its cache.
      await a.accounts.revokeKey(account.id, apiKey.id);
      expect(await refuses(a.accounts, apiKey.apiKey)()).to.equal(true);
      expect(await refuses(b.accounts, apiKey.apiKey)()).to.equal(false);
      proxy.resume();
      expect(await holdsWithin(refuses(b.accounts, apiKey.apiKey), 5000)).to.equal(true);
    } finally {
      await proxy.close();
    }
  });

  it('keeps only the latest unsent announcements (maxUnsentAnnouncements), oldest dropped, and sends them in order', async () => {
    const redis = await sharedRedis();
    const proxy = await StallableTcpProxy.start(redis.port);
    const listener = new RedisKeyRevocations({ url: redis.url, keyPrefix: 'unsent-cap:' });
    const heard: string[] = [];
    listener.listen({ onRevoked: (keyId) => void heard.push(keyId), onMissed: () => undefined });
    await listener.subscribed();
    const revoker = new RedisKeyRevocations({ url: `redis://127.0.0.1:${proxy.port}`, keyPrefix: 'unsent-cap:', maxUnsentAnnouncements: 3 });
    try {
      expect(await revoker.connected(5000)).to.equal(true);
      await cutOff(proxy, revoker);
      for (const keyId of ['k1', 'k2', 'k3', 'k2', 'k4', 'k5']) await revoker.announce(keyId);
      proxy.resume();
      expect(await holdsWithin(async () => heard.length >= 3, 5000)).to.equal(true);
      // Nothing more arrives after the three.
      expect(await holdsWithin(async () => heard.length > 3, 300)).to.equal(false);
      expect(heard).to.deep.equal(['k2', 'k4', 'k5']);
    } finally {
      await Promise.all([listener.close(), revoker.close()]);
      await proxy.close();
    }
  });
});
