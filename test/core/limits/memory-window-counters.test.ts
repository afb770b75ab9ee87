import { expect } from 'chai';
import { MemoryWindowCounters } from '../../../core';

describe('core/limits MemoryWindowCounters', () => {
  let clock: number;
  beforeEach(() => {
    clock = Date.UTC(2025, 2, 1, 12, 0, 0);
  });
  const counters = () => new MemoryWindowCounters({ now: () => clock });

  it('opens a window with a key’s first points and starts from zero once it has ended', async () => {
    const subject = counters();
    expect(await subject.add('a', 2, 60)).to.deep.equal({ count: 2, msBeforeReset: 60_000 });
    clock += 59_000;
    expect(await subject.add('a', 3, 60)).to.deep.equal({ count: 5, msBeforeReset: 1_000 });
    // The same key in another window length is another counter.
    expect(await subject.peek('a', 3600)).to.deep.equal({ count: 0, msBeforeReset: 0 });
    clock += 1_000;
    expect(await subject.peek('a', 60)).to.deep.equal({ count: 0, msBeforeReset: 0 });
    expect(await subject.add('a', 1, 60)).to.deep.equal({ count: 1, msBeforeReset: 60_000 });
    await subject.reset('a', 60);
    expect(await subject.peek('a', 60)).to.deep.equal({ count: 0, msBeforeReset: 0 });
  });

  it('adds within quotas all or nothing, and answers the counts as they are when it adds nothing', async () => {
    const subject = counters();
    await subject.add('minute', 1, 60);
    await subject.add('day', 90, 86_400);
    const refused = await subject.addWithinQuotas([
      { key: 'minute', points: 1, windowSeconds: 60, quota: 5 },
      { key: 'day', points: 20, windowSeconds: 86_400, quota: 100 },
    ]);
    expect(refused.added).to.equal(false);
    expect(refused.counts.map((count) => count.count)).to.deep.equal([1, 90]);
    expect((await subject.peek('minute', 60)).count).to.equal(1);
    const admitted = await subject.addWithinQuotas([
      { key: 'minute', points: 1, windowSeconds: 60, quota: 5 },
      { key: 'day', points: 10, windowSeconds: 86_400, quota: 100 },
      { key: 'new', points: 4, windowSeconds: 60, quota: 4 },
    ]);
    expect(admitted.added).to.equal(true);
    expect(admitted.counts).to.deep.equal([
      { count: 2, msBeforeReset: 60_000 },
      { count: 100, msBeforeReset: 86_400_000 },
      { count: 4, msBeforeReset: 60_000 },
    ]);
    await admitted.subtract('day', 10, 86_400);
    expect((await subject.peek('day', 86_400)).count).to.equal(90);
  });

  it('takes back no more than the window holds, and nothing from a window that has ended', async () => {
    const subject = counters();
    await subject.add('a', 3, 60);
    await subject.subtract('a', 5, 60);
    expect(await subject.peek('a', 60)).to.deep.equal({ count: 0, msBeforeReset: 60_000 });
    clock += 60_000;
    await subject.subtract('a', 5, 60);
    expect((await subject.add('a', 2, 60)).count).to.equal(2);
  });
});
