import { expect } from 'chai';
import { ResilientProvider, type ProviderAudio } from '../../../core';
import { expectGatewayError } from '../../support/gateway-error-assertions';
import { recordingLogger } from '../plugin/plugin-test-helpers';
import { fail, PCM, policy, request, ScriptedProvider } from './scripted-provider';

const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

/** A provider that failed twice (the circuit opens), then answers its trial when told to, and every call after. */
async function trippedProvider(defaultTimeoutMs: number) {
  let releaseTrial: () => void = () => undefined;
  const trialAnswer = new Promise<ProviderAudio>((resolve) => (releaseTrial = () => resolve(PCM)));
  const inner = new ScriptedProvider([fail(503), fail(503), () => trialAnswer, async () => PCM]);
  const wrapped = new ResilientProvider(inner, {
    instanceId: 'scripted',
    policy: policy({ retries: 0, breaker: { failures: 2, halfOpenAfterMs: 60 } }),
    logger: recordingLogger([]),
    defaultTimeoutMs,
  });
  for (let index = 0; index < 2; index += 1) await expectGatewayError(wrapped.synthesize(request()), 'TTS_ERR_UPSTREAM');
  await sleep(80);
  return { inner, wrapped, releaseTrial: () => releaseTrial() };
}

describe('core/resilience ResilientProvider: callers that gave up waiting for the half-open trial', () => {
  it('are not counted as failures once the trial has succeeded: the circuit closes and stays closed', async () => {
    const { inner, wrapped, releaseTrial } = await trippedProvider(30_000);
    // A slow provider coming back: its trial takes a while, and succeeds.
    const trial = wrapped.synthesize(request({ signal: AbortSignal.timeout(5_000), deadline: Date.now() + 5_000 }));
    expect(wrapped.state()).to.equal('half-open');
    // Two requests with less time left (later chunks of long texts, say) wait for it, and give up at their deadline.
    const waiters = [0, 1].map(() => wrapped.synthesize(request({ signal: AbortSignal.timeout(30), deadline: Date.now() + 30 })));
    for (const waiter of waiters) await expectGatewayError(waiter, 'TTS_ERR_TIMEOUT');
    releaseTrial();
    await trial;
    await sleep(20);
    // The provider answered its trial: it is healthy, and the next request goes through.
    expect(wrapped.state()).to.equal('closed');
    expect(wrapped.refusesCalls()).to.equal(false);
    await wrapped.synthesize(request());
    expect(inner.calls).to.equal(4);
  });

  it('do not call the provider once the trial is over (a request without a deadline of its own: a stream)', async () => {
    const { inner, wrapped, releaseTrial } = await trippedProvider(30);
    const trial = wrapped.synthesize(request({ signal: AbortSignal.timeout(5_000), deadline: Date.now() + 5_000 }));
    const waiters = [0, 1].map(() => wrapped.synthesize(request()));
    for (const waiter of waiters) await expectGatewayError(waiter, 'TTS_ERR_TIMEOUT');
    releaseTrial();
    await trial;
    await sleep(20);
    // Both were answered (504) long ago: calling the provider for them now is work (and cost) for nobody.
    expect(inner.calls).to.equal(3);
  });
});
