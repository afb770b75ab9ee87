import { expect } from 'chai';
import { ResilientProvider } from '../../../core';
import { expectGatewayError } from '../../support/gateway-error-assertions';
import { QUIET_LOGGER } from '../../support/quiet-logger';
import { fail, hang, policy, request, ScriptedProvider } from './scripted-provider';

/** The request's deadline, as the synthesis service's signal gives it when its time is up. */
const deadlinePassed = () => new DOMException('The operation was aborted due to timeout', 'TimeoutError');

describe('core/resilience ResilientProvider: one request cut by its deadline', () => {
  it('counts as one failure against the circuit, however many of its calls (the chunks of a text) the deadline cut', async () => {
    const inner = new ScriptedProvider([hang, hang, fail(500)]);
    const wrapped = new ResilientProvider(inner, { instanceId: 'scripted', policy: policy({ retries: 0, breaker: { failures: 2, halfOpenAfterMs: 60_000 } }), logger: QUIET_LOGGER, defaultTimeoutMs: 30_000 });
    // A long text: two chunks on the provider at once, under the request's one deadline.
    const requestTime = new AbortController();
    const deadline = Date.now() + 30_000;
    const chunks = [0, 1].map(() => wrapped.synthesize(request({ signal: requestTime.signal, deadline })));
    await new Promise((resolve) => setImmediate(resolve));
    requestTime.abort(deadlinePassed());
    for (const chunk of chunks) await expectGatewayError(chunk, 'TTS_ERR_TIMEOUT');
    expect(inner.calls).to.equal(2);
    // One failed request of the two that open it.
    expect(wrapped.state()).to.equal('closed');
    await expectGatewayError(wrapped.synthesize(request()), 'TTS_ERR_UPSTREAM');
    expect(wrapped.state()).to.equal('open');
  });

  it('still counts each request its own deadline cut', async () => {
    const inner = new ScriptedProvider([hang]);
    const wrapped = new ResilientProvider(inner, { instanceId: 'scripted', policy: policy({ retries: 0, breaker: { failures: 2, halfOpenAfterMs: 60_000 } }), logger: QUIET_LOGGER, defaultTimeoutMs: 30_000 });
    for (let index = 0; index < 2; index += 1) {
      const requestTime = new AbortController();
      const call = wrapped.synthesize(request({ signal: requestTime.signal, deadline: Date.now() + 30_000 }));
      await new Promise((resolve) => setImmediate(resolve));
      requestTime.abort(deadlinePassed());
      await expectGatewayError(call, 'TTS_ERR_TIMEOUT');
    }
    expect(wrapped.state()).to.equal('open');
  });
});
