import { expect } from 'chai';
import { ResilientProvider, type ProviderAudio } from '../../../core';
import { expectGatewayError } from '../../support/gateway-error-assertions';
import { recordingLogger } from '../plugin/plugin-test-helpers';
import { fail, PCM, policy, request, ScriptedProvider } from './scripted-provider';

const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

/** A provider whose circuit opened (one failure), on its trial once the test makes one; the trial answers when told. */
async function providerOnTrial() {
  let releaseTrial: () => void = () => undefined;
  const trialAnswer = new Promise<ProviderAudio>((resolve) => (releaseTrial = () => resolve(PCM)));
  const inner = new ScriptedProvider([fail(503), () => trialAnswer, async () => PCM]);
  const wrapped = new ResilientProvider(inner, { instanceId: 'scripted', policy: policy({ retries: 0, breaker: { failures: 1, halfOpenAfterMs: 40 } }), logger: recordingLogger([]), defaultTimeoutMs: 5_000 });
  await expectGatewayError(wrapped.synthesize(request()), 'TTS_ERR_UPSTREAM');
  await sleep(60);
  const trial = wrapped.synthesize(request());
  expect(wrapped.state()).to.equal('half-open');
  return { inner, wrapped, trial, releaseTrial: () => releaseTrial() };
}

describe('core/resilience ResilientProvider: a caller with a fallback during a half-open trial', () => {
  it('is refused at once with a retryable 503 (circuit_half_open), without calling the provider', async () => {
    const { inner, wrapped, trial, releaseTrial } = await providerOnTrial();
    const refused = await expectGatewayError(wrapped.synthesize(request({ fallbackAvailable: true })), 'TTS_ERR_UNAVAILABLE');
    expect(refused.retryable).to.equal(true);
    expect(refused.retryAfterSeconds).to.equal(1);
    expect(refused.details[0]).to.include({ reason: 'circuit_half_open', provider: 'scripted' });
    releaseTrial();
    await trial;
    expect(inner.calls).to.equal(2);
    // The refusal said nothing of the provider: its trial closed the circuit.
    expect(wrapped.state()).to.equal('closed');
  });

  it('waits for the trial when it continues a stream already under way (it could fall back no more)', async () => {
    const { inner, wrapped, trial, releaseTrial } = await providerOnTrial();
    const continuing = wrapped.synthesize(request({ fallbackAvailable: true, continuation: true }));
    releaseTrial();
    await trial;
    expect(await continuing).to.equal(PCM);
    expect(inner.calls).to.equal(3);
  });
});
