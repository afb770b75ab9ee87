import { expect } from 'chai';
import { AccountService, openAccountStore, RedisKeyRevocations, type AccountStore } from '../../../core';
import { ownRedis, sharedPostgres } from '../../support/servers/shared-servers';
import { holdsWithin } from '../../support/eventually';

const FAST_SCRYPT = { cost: 1024, blockSize: 8, parallelization: 1 };
/** Long enough that only a broadcast or a cache drop can explain a replica refusing the key. */
const LONG_CACHE_MS = 600_000;

describe('core/redis key revocations: a replica that started while Redis was away', () => {
  const closing: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    await Promise.allSettled(closing.splice(0).map((close) => close()));
  });

  it('drops the keys it cached before its first connection once Redis is there (announcements made meanwhile were missed)', async () => {
    const redis = await ownRedis();
    await redis.stop();
    const databaseUrl = await (await sharedPostgres()).createDatabase('firstconnect');
    const replica = async () => {
      const store: AccountStore = await openAccountStore(databaseUrl);
      const revocations = new RedisKeyRevocations({ url: redis.url, keyPrefix: 'first-connect:' });
      closing.push(() => revocations.close(), () => store.close());
      return { revocations, accounts: new AccountService(store, { registration: 'open', scrypt: FAST_SCRYPT, keyCacheTtlMs: LONG_CACHE_MS, revocations }) };
    };
    // Both replicas start during the outage: keys are read from PostgreSQL and cached.
    const [a, b] = [await replica(), await replica()];
    const { account, apiKey } = await a.accounts.register('late@example.com', 'correct horse battery');
    expect((await b.accounts.authenticate(apiKey.apiKey)).keyId).to.equal(apiKey.id);
    // Revoked on A while Redis is still away: B cannot hear it.
    await a.accounts.revokeKey(account.id, apiKey.id);
    await redis.resume();
    await b.revocations.subscribed();
    const refused = () =>
      b.accounts.authenticate(apiKey.apiKey).then(
        () => false,
        () => true,
      );
    expect(await holdsWithin(refused, 3000)).to.equal(true);
  });
});
