import { expect } from 'chai';
import { SqliteAccountStore, type AccountActivity, type UsageRecord } from '../../../core';
import { ActivityWriter } from '../../../core/accounts/activity-writer';

/** A store that records each batch and fails the writes it is told to fail. */
class RecordingStore extends SqliteAccountStore {
  readonly batches: AccountActivity[] = [];
  failingWrites = 0;

  constructor() {
    super(':memory:');
  }

  override async recordActivity(activity: AccountActivity): Promise<void> {
    if (this.failingWrites > 0) {
      this.failingWrites -= 1;
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
    store.failingWrites = 1;
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

  it('waits before retrying a failing store, key uses included (a closed store was retried in a busy loop)', async () => {
    store.failingWrites = Number.MAX_SAFE_INTEGER;
    let attempts = 0;
    const failingWrite = store.recordActivity.bind(store);
    store.recordActivity = (activity) => ((attempts += 1), failingWrite(activity));
    writer.touch('key-1', 100);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(attempts).to.equal(1);
    expect(errors).to.have.length(1);
    expect(writer.pendingLastUse('key-1')).to.equal(100);
  });

  it('writes failed syntheses in the batch of the usage rows, and keeps them through a failed write', async () => {
    store.failingWrites = 1;
    const failure = (createdAt: number) => ({ accountId: 'account', model: 'm', createdAt });
    const recorded = writer.recordFailure(failure(1));
    expect(writer.record(usage(1))).to.equal(recorded);
    await recorded;
    expect(errors).to.have.length(1);
    void writer.recordFailure(failure(2));
    await writer.flush();
    expect(store.batches).to.have.length(1);
    expect(store.batches[0].failures.map((row) => row.createdAt)).to.deep.equal([1, 2]);
    expect(store.batches[0].usage.map((row) => row.characters)).to.deep.equal([1]);
  });

  it('holds at most maxPendingUsage rows while the store fails, dropping the oldest', async () => {
    store.failingWrites = 1;
    await Promise.all([1, 2, 3].map((characters) => writer.record(usage(characters))));
    void writer.record(usage(4));
    await writer.flush();
    expect(store.batches[0].usage.map((row) => row.characters)).to.deep.equal([2, 3, 4]);
  });

  it('sends a failed batch again under its own part numbers, the rows that came since as a new part', async () => {
    store.failingWrites = 1;
    await writer.record(usage(1));
    void writer.record(usage(2));
    await writer.flush();
    const [failed] = errors;
    expect(failed).to.be.an('error');
    const sent = store.batches[0];
    expect(sent.usage.map((row) => row.characters)).to.deep.equal([1, 2]);
    expect(sent.sender?.parts).to.deep.equal([
      { number: 1, usage: 1, failures: 0 },
      { number: 2, usage: 1, failures: 0 },
    ]);
    await writer.record(usage(3));
    expect(store.batches[1].sender).to.deep.equal({ writerId: sent.sender?.writerId, parts: [{ number: 3, usage: 1, failures: 0 }] });
  });

  it('keeps part numbers in step with the rows dropped beyond maxPendingUsage', async () => {
    store.failingWrites = 2;
    await Promise.all([1, 2].map((characters) => writer.record(usage(characters)))); // fails: part 1
    void writer.record(usage(3));
    await writer.flush(); // fails again: parts 1 and 2
    expect(errors).to.have.length(2);
    void writer.record(usage(4)); // a fourth row held pushes the oldest (of part 1) out
    await writer.flush();
    const sent = store.batches[0];
    expect(sent.usage.map((row) => row.characters)).to.deep.equal([2, 3, 4]);
    expect(sent.sender?.parts).to.deep.equal([
      { number: 1, usage: 1, failures: 0 },
      { number: 2, usage: 1, failures: 0 },
      { number: 3, usage: 1, failures: 0 },
    ]);
  });

  it('gives the rows of one batch one promise: a row waiting for its batch holds nothing of its caller', async () => {
    const first = writer.record(usage(1));
    expect(writer.record(usage(2))).to.equal(first);
    await first;
    expect(writer.record(usage(3))).not.to.equal(first);
    await writer.flush();
    expect(store.batches.map((batch) => batch.usage.map((row) => row.characters))).to.deep.equal([[1, 2], [3]]);
  });

  describe('with a last-use resolution', () => {
    const RESOLUTION_MS = 60;
    beforeEach(() => {
      writer = new ActivityWriter(store, { flushIntervalMs: 0, maxPendingUsage: 3, onError: (error) => errors.push(error), lastUseResolutionMs: RESOLUTION_MS });
    });
    const touchesWritten = () => store.batches.flatMap((batch) => [...batch.touches]);

    it('writes a key in steady use once per resolution, while reads see its newest use', async () => {
      writer.touch('key-1', 1000);
      await nextTurn();
      await nextTurn();
      expect(touchesWritten()).to.deep.equal([['key-1', 1000]]);
      writer.touch('key-1', 1010);
      writer.touch('key-1', 1020);
      await nextTurn();
      await nextTurn();
      expect(touchesWritten(), 'not due: kept in memory').to.have.length(1);
      expect(writer.pendingLastUse('key-1')).to.equal(1020);
      // A use one resolution after the last write is due at once.
      writer.touch('key-1', 1000 + RESOLUTION_MS);
      await nextTurn();
      await nextTurn();
      expect(touchesWritten()).to.deep.equal([['key-1', 1000], ['key-1', 1000 + RESOLUTION_MS]]);
    });

    it('writes a use not yet due one resolution later, and at once on flush', async () => {
      writer.touch('key-1', 1000);
      await writer.flush();
      writer.touch('key-1', 1005);
      await new Promise((resolve) => setTimeout(resolve, RESOLUTION_MS * 3));
      expect(touchesWritten()).to.deep.equal([['key-1', 1000], ['key-1', 1005]]);
      writer.touch('key-1', 1010);
      await writer.flush();
      expect(touchesWritten().at(-1)).to.deep.equal(['key-1', 1010]);
      expect(writer.pendingLastUse('key-1')).to.equal(undefined);
    });

    it('writes a use not yet due within a resolution even while other writes keep coming', async () => {
      writer.touch('key-1', 1000);
      await writer.flush();
      writer.touch('key-1', 1005); // not due: to be written within one resolution
      // Usage rows of other requests, one every few milliseconds: each write they cause used to
      // put the key's write off by a whole resolution again, so that it never came.
      const started = Date.now();
      while (Date.now() - started < RESOLUTION_MS * 4) {
        await writer.record(usage(1));
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      expect(touchesWritten()).to.deep.equal([['key-1', 1000], ['key-1', 1005]]);
    });

    it('never holds a usage row back for a key use that is not due', async () => {
      writer.touch('key-1', 1000);
      await writer.flush();
      writer.touch('key-1', 1001); // schedules a write one resolution away
      await writer.record(usage(7)); // written with the next turn's batch all the same
      expect(store.batches.at(-1)?.usage.map((row) => row.characters)).to.deep.equal([7]);
      expect([...(store.batches.at(-1)?.touches ?? [])]).to.deep.equal([]);
      expect(writer.pendingLastUse('key-1')).to.equal(1001);
    });
  });

  it('writes nothing when nothing happened', async () => {
    await writer.flush();
    await nextTurn();
    expect(store.batches).to.have.length(0);
  });
});
