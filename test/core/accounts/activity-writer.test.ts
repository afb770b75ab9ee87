import { expect } from 'chai';
import { SqliteAccountStore, type AccountActivity, type UsageRecord } from '../../../core';
import { ActivityWriter } from '../../../core/accounts/activity-writer';

/** A store that records each batch and fails the writes it is told to fail. */
class RecordingStore extends SqliteAccountStore {
  readonly batches: AccountActivity[] = [];
  failures = 0;

  constructor() {
    super(':memory:');
  }

  override async recordActivity(activity: AccountActivity): Promise<void> {
    if (this.failures > 0) {
      this.failures -= 1;
      throw new Error('SQLITE_FULL: database or disk is full');
    }
    this.batches.push(activity);
  }
}

const usage = (characters: number): UsageRecord => ({ accountId: 'account', keyId: 'key', model: 'm', characters, bytes: 1, createdAt: characters });
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('core/accounts ActivityWriter', () => {
  let store: RecordingStore;
  let errors: unknown[];
  let writer: ActivityWriter;

  beforeEach(() => {
    store = new RecordingStore();
    errors = [];
    writer = new ActivityWriter(store, { flushIntervalMs: 0, maxPendingUsage: 3, onError: (error) => errors.push(error) });
  });
  afterEach(() => store.close());

  it('writes what one event-loop turn left behind as one batch, keeping the newest use of each key', async () => {
    writer.touch('key-1', 100);
    writer.touch('key-1', 300);
    writer.touch('key-1', 200);
    writer.touch('key-2', 50);
    const recorded = [writer.record(usage(1)), writer.record(usage(2))];
    expect(writer.pendingLastUse('key-1')).to.equal(300);
    expect(store.batches).to.have.length(0);
    await Promise.all(recorded);
    expect(store.batches).to.have.length(1);
    expect([...store.batches[0].touches]).to.deep.equal([['key-1', 300], ['key-2', 50]]);
    expect(store.batches[0].usage.map((row) => row.characters)).to.deep.equal([1, 2]);
    expect(writer.pendingLastUse('key-1')).to.equal(undefined);
  });

  it('keeps a failed batch, reports the failure, and writes it with the next flush', async () => {
    store.failures = 1;
    writer.touch('key-1', 100);
    const recorded = writer.record(usage(1));
    await recorded; // settles even though the write failed: a request never waits on a broken disk
    expect(errors).to.have.length(1);
    expect(store.batches).to.have.length(0);
    expect(writer.pendingLastUse('key-1')).to.equal(100);
    writer.touch('key-1', 150);
    await writer.flush();
    expect(store.batches).to.have.length(1);
    expect([...store.batches[0].touches]).to.deep.equal([['key-1', 150]]);
    expect(store.batches[0].usage.map((row) => row.characters)).to.deep.equal([1]);
  });

  it('holds at most maxPendingUsage rows while the store fails, dropping the oldest', async () => {
    store.failures = 1;
    await Promise.all([1, 2, 3].map((characters) => writer.record(usage(characters))));
    void writer.record(usage(4));
    await writer.flush();
    expect(store.batches[0].usage.map((row) => row.characters)).to.deep.equal([2, 3, 4]);
  });

  it('gives the rows of one batch one promise: a row waiting for its batch holds nothing of its caller', async () => {
    const first = writer.record(usage(1));
    expect(writer.record(usage(2))).to.equal(first);
    await first;
    expect(writer.record(usage(3))).not.to.equal(first);
    await writer.flush();
    expect(store.batches.map((batch) => batch.usage.map((row) => row.characters))).to.deep.equal([[1, 2], [3]]);
  });

  it('writes nothing when nothing happened', async () => {
    await writer.flush();
    await nextTurn();
    expect(store.batches).to.have.length(0);
  });
});
