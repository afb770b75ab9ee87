import { expect } from 'chai';
import { GatewayError, NO_METRICS, synthesisOutcomeOf, type ErrorCode } from '../../../core';

describe('core/metrics synthesisOutcomeOf', () => {
  const outcome = (code: ErrorCode) => synthesisOutcomeOf(new GatewayError(code, 'x'));

  it('names the outcome of a failure by its error', () => {
    expect(outcome('TTS_ERR_VALIDATION')).to.equal('client_error');
    expect(outcome('TTS_ERR_MODEL_NOT_FOUND')).to.equal('client_error');
    expect(outcome('TTS_ERR_UNSUPPORTED_FORMAT')).to.equal('client_error');
    expect(outcome('TTS_ERR_RATE_LIMITED')).to.equal('rate_limited');
    expect(outcome('TTS_ERR_UPSTREAM')).to.equal('upstream_error');
    expect(outcome('TTS_ERR_UPSTREAM_AUTH')).to.equal('upstream_error');
    expect(outcome('TTS_ERR_UNAVAILABLE')).to.equal('upstream_error');
    expect(outcome('TTS_ERR_TIMEOUT')).to.equal('timeout');
    expect(outcome('TTS_ERR_CANCELLED')).to.equal('cancelled');
    expect(outcome('TTS_ERR_INTERNAL')).to.equal('internal');
    expect(synthesisOutcomeOf(new TypeError('bug'))).to.equal('internal');
  });

  it('offers a port implementation that counts nothing and never throws', () => {
    expect(() => {
      NO_METRICS.synthesisFinished({ model: 'm', provider: 'p', outcome: 'success', characters: 1, audioSeconds: 1, seconds: 1 });
      NO_METRICS.synthesisFirstByte({ model: 'm', provider: 'p' }, 0.1);
      NO_METRICS.upstreamCall({ provider: 'p', seconds: 1 });
      NO_METRICS.upstreamRetry('p', 'r');
      NO_METRICS.cacheLookup('results', true);
      NO_METRICS.breakerState('p', 'open');
      NO_METRICS.audioQueueDepth(1);
    }).to.not.throw();
  });
});
