import { expect } from 'chai';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileSystemAudioStore, GatewayError, StorageQuota } from '../../../core';

const HOUR = 3_600_000;

describe('core/storage bytes stored per account (FileSystemAudioStore) and limits.storageBytes', () => {
  let root: string;
  let clock: number;
  let store: FileSystemAudioStore;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'storage-quota-'));
    clock = Date.now();
    store = new FileSystemAudioStore(join(root, 'audio'), HOUR, { now: () => clock });
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('adds up the live files saved for each account, and nothing saved without one', async () => {
    await store.save(Buffer.alloc(100), 'mp3', { owner: 'account-a' });
    clock += 1000;
    await store.save(Buffer.alloc(250), 'wav', { owner: 'account-a' });
    await store.save(Buffer.alloc(40), 'mp3', { owner: 'account-b' });
    await store.save(Buffer.alloc(999), 'mp3');
    expect(await store.storedBytes('account-a')).to.deep.equal({ bytes: 350, oldestExpiresAt: clock - 1000 + HOUR });
    expect(await store.storedBytes('account-b')).to.deep.equal({ bytes: 40, oldestExpiresAt: clock + HOUR });
    expect(await store.storedBytes('account-c')).to.deep.equal({ bytes: 0 });
  });

  it('stops counting files once they expire, and the sweep removes what the ledger kept of them', async () => {
    await store.save(Buffer.alloc(100), 'mp3', { owner: 'account-a' });
    clock += HOUR / 2;
    await store.save(Buffer.alloc(30), 'mp3', { owner: 'account-a' });
    clock += HOUR / 2 + 1;
    expect((await store.storedBytes('account-a')).bytes).to.equal(30);
    clock += HOUR;
    expect((await store.storedBytes('account-a')).bytes).to.equal(0);
    await store.sweep();
    expect(readdirSync(join(root, 'audio', '.owners'))).to.deep.equal([]);
  });

  it('keeps no account id on disk: owners are hashed folder names', async () => {
    await store.save(Buffer.alloc(10), 'mp3', { owner: 'account-with-a-recognizable-id' });
    const owners = readdirSync(join(root, 'audio', '.owners'));
    expect(owners).to.have.length(1);
    expect(owners[0]).to.match(/^[0-9a-f]{32}$/);
  });

  it('does not keep a file whose owner could not be recorded', async () => {
    mkdirSync(join(root, 'audio'), { recursive: true });
    // A file where the ledger's folder belongs: recording fails.
    writeFileSync(join(root, 'audio', '.owners'), 'in the way');
    const error = await store.save(Buffer.alloc(10), 'mp3', { owner: 'account-a' }).catch((caught: unknown) => caught);
    expect(error).to.be.instanceOf(Error);
    expect(readdirSync(join(root, 'audio'))).to.deep.equal(['.owners']);
  });

  it('refuses an account at its limit with 507 and Retry-After until its oldest file expires', async () => {
    const quota = new StorageQuota(store, 300, () => clock);
    await store.save(Buffer.alloc(200), 'mp3', { owner: 'account-a' });
    await quota.check('account-a');
    clock += 60_000;
    await store.save(Buffer.alloc(100), 'mp3', { owner: 'account-a' });
    const error = await quota.check('account-a').catch((caught: unknown) => caught);
    expect(error).to.be.instanceOf(GatewayError);
    const refusal = error as GatewayError;
    expect(refusal.code).to.equal('TTS_ERR_STORAGE_FULL');
    expect(refusal.status).to.equal(507);
    expect(refusal.message).to.equal("This account's audio storage has no room for this audio: its files hold 300 bytes of its 300; older files expire first");
    expect(refusal.retryAfterSeconds).to.equal((HOUR - 60_000) / 1000);
    // Another account is not affected.
    await quota.check('account-b');
    // Once the first file expired, the account may store again.
    clock += HOUR - 60_000;
    await quota.check('account-a');
  });
});
