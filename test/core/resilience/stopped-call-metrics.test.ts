import { expect } from 'chai';
import { NO_METRICS, ResilientProvider, type Metrics, type UpstreamCall } from '../../../core';
import { expectGatewayError } from '../../support/gateway-error-assertions';
import { recordingLogger } from '../plugin/plugin-test-helpers';
import { hang, policy, request, ScriptedProvider, upstreamFailure } from './scripted-provider';

/**
 * A call its caller stopped (its client left, another chunk of its text failed and cancelled
 * the rest) did not fail at the provider: it is neither a failed upstream call in the metrics
 * nor the provider's last error. One chunk's failure used to count once per chunk in flight,
 * each under the failed chunk's code. A call the deadline cut is the provider's timeout, and counts.
 */
describe('core/resilience ResilientProvider: calls stopped by their caller', () => {
  const recorded = () => {
    const calls: UpstreamCall[] = [];
    const failures: unknown[] = [];
    const metrics: Metrics = { ...NO_METRICS, upstreamCall: (event) => calls.push(event) };
    return { calls, failures, metrics, onFailure: (error: unknown) => failures.push(error) };
  };
  const wrap = (seen: ReturnType<typeof recorded>) =>
    new ResilientProvider(new ScriptedProvider([hang]), { instanceId: 'hanging', policy: policy(), logger: recordingLogger([]), defaultTimeoutMs: 30_000, metrics: seen.metrics, onFailure: seen.onFailure });
  const settled = () => new Promise((resolve) => setImmediate(resolve));

  it('counts no failed call when another chunk\'s failure cancels it', async () => {
    const seen = recorded();
    const failFast = new AbortController();
    const call = wrap(seen).synthesize(request({ signal: failFast.signal, deadline: Date.now() + 30_000 }));
    await settled();
    failFast.abort(upstreamFailure(503));
    await expectGatewayError(call, 'TTS_ERR_UPSTREAM');
    expect(seen.calls.filter((event) => event.errorCode !== undefined), JSON.stringify(seen.calls)).to.deep.equal([]);
    expect(seen.failures).to.deep.equal([]);
  });

  it('counts no failed call when the client leaves', async () => {
    const seen = recorded();
    const client = new AbortController();
    const call = wrap(seen).synthesize(request({ signal: client.signal, deadline: Date.now() + 30_000 }));
    await settled();
    client.abort();
    await expectGatewayError(call, 'TTS_ERR_CANCELLED');
    expect(seen.calls.filter((event) => event.errorCode !== undefined), JSON.stringify(seen.calls)).to.deep.equal([]);
  });

  it('still counts a call the deadline cut, as a timeout', async () => {
    const seen = recorded();
    const clock = new AbortController();
    const call = wrap(seen).synthesize(request({ signal: clock.signal, deadline: Date.now() + 30_000 }));
    await settled();
    clock.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError'));
    await expectGatewayError(call, 'TTS_ERR_TIMEOUT');
    expect(seen.calls.map((event) => event.errorCode)).to.deep.equal(['TTS_ERR_TIMEOUT']);
    expect(seen.failures).to.have.length(1);
  });
});
