import { expect } from 'chai';
import { GatewayError, ResilientProvider } from '../../../core';
import { expectGatewayError } from '../../support/gateway-error-assertions';
import { recordingLogger } from '../plugin/plugin-test-helpers';
import { ok, policy, request, ScriptedProvider, type Step } from './scripted-provider';

describe("core/resilience ResilientProvider: the gateway's own load shedding", () => {
  /** What a worker pool answers when it cannot finish the work in time. */
  const overloaded: Step = async () => {
    throw new GatewayError('TTS_ERR_UNAVAILABLE', 'The espeak pool is unavailable: it cannot finish this work in time', {
      retryAfterSeconds: 12,
      details: [{ reason: 'overloaded', pool: 'espeak' }],
    });
  };

  it('passes a refusal for load on at once: no retry, and no failure counted against the circuit', async () => {
    const inner = new ScriptedProvider([overloaded]);
    const provider = new ResilientProvider(inner, {
      instanceId: 'scripted',
      policy: policy({ retries: 2, breaker: { failures: 2, halfOpenAfterMs: 60_000 } }),
      logger: recordingLogger([]),
      defaultTimeoutMs: 30_000,
    });
    for (let attempt = 0; attempt < 4; attempt += 1) {
      const error = await expectGatewayError(provider.synthesize(request()), 'TTS_ERR_UNAVAILABLE');
      expect(error.retryAfterSeconds).to.equal(12);
    }
    expect(inner.calls).to.equal(4);
    expect(provider.state()).to.equal('closed');
    inner.script = [ok];
    expect((await provider.synthesize(request())).audio.byteLength).to.equal(480);
  });
});
