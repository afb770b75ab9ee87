import { expect } from 'chai';
import { GatewayError, isTransientFailure, retryDelayMs, upstreamError } from '../../../core';

const upstreamFailure = (status: number, retryAfter: string | null = null) => upstreamError({ provider: 'P', upstreamStatus: status, reading: {}, retryAfterHeader: retryAfter });

describe('core/resilience retryDelayMs and isTransientFailure', () => {
  const settings = { backoffMs: 200, maxBackoffMs: 500 };
  const plain = new GatewayError('TTS_ERR_UPSTREAM', 'failed', { details: [{ reason: 'upstream_status', upstreamStatus: 500 }] });

  it('draws each delay uniformly between 0 and backoff * 2^(retry-1), capped at maxBackoff (full jitter)', () => {
    expect(retryDelayMs(1, plain, settings, () => 0)).to.equal(0);
    expect(retryDelayMs(1, plain, settings, () => 0.5)).to.equal(100);
    expect(retryDelayMs(2, plain, settings, () => 0.5)).to.equal(200);
    expect(retryDelayMs(3, plain, settings, () => 0.5)).to.equal(250);
    expect(retryDelayMs(9, plain, settings, () => 0.999)).to.equal(499);
  });

  it('never comes back before the upstream Retry-After', () => {
    const limited = upstreamFailure(429, '3');
    expect(retryDelayMs(1, limited, settings, () => 0)).to.equal(3000);
  });

  it('takes network errors, timeouts, bad answers, 408, 429 and 5xx as transient; other 4xx, credentials billing stops and cancellations not', () => {
    const transient = [
      new GatewayError('TTS_ERR_UNAVAILABLE', 'x'),
      new GatewayError('TTS_ERR_TIMEOUT', 'x'),
      new GatewayError('TTS_ERR_UPSTREAM_BAD_RESPONSE', 'x'),
      upstreamFailure(408),
      upstreamFailure(429),
      upstreamFailure(500),
      upstreamFailure(504),
    ];
    const final = [
      upstreamFailure(400),
      upstreamFailure(404),
      upstreamFailure(401),
      new GatewayError('TTS_ERR_UPSTREAM', 'no status'),
      new GatewayError('TTS_ERR_CANCELLED', 'x'),
      upstreamError({ provider: 'P', upstreamStatus: 429, reading: { failure: 'quota' } }),
      new GatewayError('TTS_ERR_VALIDATION', 'x'),
      new Error('a bug'),
    ];
    expect(transient.map(isTransientFailure)).to.deep.equal(transient.map(() => true));
    expect(final.map(isTransientFailure)).to.deep.equal(final.map(() => false));
  });
});
