import { expect } from 'chai';
import { ApiKeyCache } from '../../../core/accounts/api-key-cache';

const principal = (keyId: string) => ({ principal: { account: { id: `account-${keyId}`, email: `${keyId}@example.com` }, keyId }, expiresAt: null });

describe('core/accounts ApiKeyCache', () => {
  it('keeps a key by hash until it is forgotten by its id', () => {
    const cache = new ApiKeyCache({ maxEntries: 10, ttlMs: 60_000 });
    cache.set('hash-a', principal('a'), cache.generation);
    cache.set('hash-b', principal('b'), cache.generation);
    expect(cache.get('hash-a')).to.deep.equal(principal('a'));
    cache.forgetKey('a');
    expect(cache.get('hash-a')).to.equal(undefined);
    expect(cache.get('hash-b')).to.deep.equal(principal('b'));
  });

  it('does not cache a lookup that started before something was dropped', () => {
    const cache = new ApiKeyCache({ maxEntries: 10, ttlMs: 60_000 });
    const before = cache.generation;
    cache.forgetKey('a'); // a revocation lands while the lookup reads the store
    cache.set('hash-a', principal('a'), before);
    expect(cache.get('hash-a')).to.equal(undefined);
    cache.set('hash-a', principal('a'), cache.generation);
    expect(cache.get('hash-a')).to.deep.equal(principal('a'));
  });

  it('drops everything on clear, and the oldest entry beyond its size', () => {
    const cache = new ApiKeyCache({ maxEntries: 2, ttlMs: 60_000 });
    for (const id of ['a', 'b', 'c']) cache.set(`hash-${id}`, principal(id), cache.generation);
    expect(cache.get('hash-a')).to.equal(undefined);
    expect(cache.get('hash-c')).to.deep.equal(principal('c'));
    cache.clear();
    expect(cache.get('hash-c')).to.equal(undefined);
  });
});
