import { expect } from 'chai';
import { LookAheadBudget } from '../../../core/synthesis/look-ahead-budget';

describe('core/synthesis LookAheadBudget', () => {
  it('gives a stream alone its full share', () => {
    const budget = new LookAheadBudget(8, 2);
    expect(budget.join().calls()).to.equal(2);
  });

  it('shares the calls ahead equally and leaves none ahead once streams outnumber them', () => {
    const budget = new LookAheadBudget(8, 3);
    const shares = Array.from({ length: 4 }, () => budget.join());
    // 8 calls ahead over 4 streams: two each, plus the chunk each is waiting for.
    expect(shares.map((share) => share.calls())).to.deep.equal([3, 3, 3, 3]);
    shares.push(...Array.from({ length: 4 }, () => budget.join()));
    expect(shares.map((share) => share.calls())).to.deep.equal(new Array(8).fill(2));
    shares.push(budget.join());
    expect(shares.map((share) => share.calls())).to.deep.equal(new Array(9).fill(1));
  });

  it('gives the share back when a stream ends, once however often it is released', () => {
    const budget = new LookAheadBudget(1, 2);
    const first = budget.join();
    const second = budget.join();
    expect(first.calls()).to.equal(1);
    second.release();
    second.release();
    expect(budget.streams).to.equal(1);
    expect(first.calls()).to.equal(2);
    expect(second.calls()).to.equal(1);
  });
});
