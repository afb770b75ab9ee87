import { expect } from 'chai';
import { parseRetryAfter, upstreamError } from '../../../core';

const NOW = Date.UTC(2025, 5, 12, 8, 0, 0);

describe('core/http parseRetryAfter (a provider’s Retry-After: delay-seconds or an HTTP-date)', () => {
  it('ignores a value that is neither (negative, signed, hexadecimal, words with digits), rather than reading it as "now"', () => {
    for (const value of ['-5', '-0.5', '+3', '0x10', '1e3', 'in 12 seconds', 'abc 12', '1 2', '   ', 'Infinity']) {
      expect(parseRetryAfter(value, NOW), JSON.stringify(value)).to.equal(undefined);
    }
  });

  it('reads delay-seconds, a fraction rounded up', () => {
    expect(parseRetryAfter('0', NOW)).to.equal(0);
    expect(parseRetryAfter('12', NOW)).to.equal(12);
    expect(parseRetryAfter(' 12 ', NOW)).to.equal(12);
    expect(parseRetryAfter('1.5', NOW)).to.equal(2);
  });

  it('keeps a huge delay a whole number of seconds that a header can carry (never 1e+23)', () => {
    const seconds = parseRetryAfter('99999999999999999999999', NOW);
    expect(Number.isSafeInteger(seconds)).to.equal(true);
    expect(String(seconds)).to.match(/^\d+$/);
  });

  it('reads the three HTTP-date forms as UTC, whatever the host’s time zone', () => {
    const zone = process.env.TZ;
    process.env.TZ = 'America/New_York';
    try {
      expect(parseRetryAfter('Thu, 12 Jun 2025 08:00:30 GMT', NOW)).to.equal(30);
      expect(parseRetryAfter('Thursday, 12-Jun-25 08:00:30 GMT', NOW)).to.equal(30);
      expect(parseRetryAfter('Thu Jun 12 08:00:30 2025', NOW)).to.equal(30);
      expect(parseRetryAfter('Thu Jun  5 08:00:00 2025', NOW)).to.equal(0);
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
  });

  it('falls back to the provider’s body hint, else 1 s, on a 429 whose Retry-After is not valid', () => {
    const withHint = upstreamError({ provider: 'Acme', upstreamStatus: 429, reading: { retryAfterSeconds: 20 }, retryAfterHeader: '-1' });
    expect(withHint.retryAfterSeconds).to.equal(20);
    const bare = upstreamError({ provider: 'Acme', upstreamStatus: 429, reading: {}, retryAfterHeader: '-1' });
    expect(bare.retryAfterSeconds).to.equal(1);
  });
});
