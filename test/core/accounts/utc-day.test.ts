import { expect } from 'chai';
import { msUntilNextUtcDay, utcDay } from '../../../core/accounts/utc-day';

describe('core/accounts utcDay', () => {
  const DAY_MS = 86_400_000;
  const midnight = Date.UTC(2026, 10, 23);

  it('names the UTC day of each time, across midnights and back again (the last day is remembered)', () => {
    const times = [midnight, midnight + DAY_MS - 1, midnight + DAY_MS, midnight - 1, midnight + 5, midnight + DAY_MS + 1, -1, 0, Date.UTC(2024, 1, 29, 12), Date.UTC(2024, 2, 1)];
    for (const time of times) expect(utcDay(time), String(time)).to.equal(new Date(time).toISOString().slice(0, 10));
    expect(utcDay(midnight - 1)).to.equal('2026-11-22');
    expect(utcDay(midnight)).to.equal('2026-11-23');
    expect(utcDay(midnight + DAY_MS - 1)).to.equal('2026-11-23');
    expect(utcDay(midnight + DAY_MS)).to.equal('2026-11-24');
  });

  it('refuses a time that is not one, as Date does', () => {
    expect(() => utcDay(Number.NaN)).to.throw(RangeError);
    expect(utcDay(midnight)).to.equal('2026-11-23');
  });

  it('counts the milliseconds to the next UTC midnight', () => {
    expect(msUntilNextUtcDay(midnight)).to.equal(DAY_MS);
    expect(msUntilNextUtcDay(midnight + DAY_MS - 1)).to.equal(1);
  });
});
