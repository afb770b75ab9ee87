import { expect } from 'chai';
import { GatewayError, ResilientProvider, type TtsProvider } from '../../../core';
import { expectGatewayError } from '../../support/gateway-error-assertions';
import { recordingLogger, type LogRecord } from '../plugin/plugin-test-helpers';
import { fail, hang, ok, policy, request, ScriptedProvider } from './scripted-provider';

const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

describe('core/resilience ResilientProvider: circuit breaker', () => {
  let records: LogRecord[];
  beforeEach(() => {
    records = [];
  });

  const wrap = (inner: TtsProvider) =>
    new ResilientProvider(inner, { instanceId: 'scripted', policy: policy({ retries: 0, breaker: { failures: 2, halfOpenAfterMs: 60 } }), logger: recordingLogger(records), defaultTimeoutMs: 30_000 });

  it('opens after N consecutive failed requests and then fails fast with 503 and Retry-After, without calling the provider', async () => {
    const inner = new ScriptedProvider([fail(500)]);
    const wrapped = wrap(inner);
    await expectGatewayError(wrapped.synthesize(request()), 'TTS_ERR_UPSTREAM');
    expect(wrapped.state()).to.equal('closed');
    await expectGatewayError(wrapped.synthesize(request()), 'TTS_ERR_UPSTREAM');
    expect(wrapped.state()).to.equal('open');
    const fast = await expectGatewayError(wrapped.synthesize(request()), 'TTS_ERR_UNAVAILABLE');
    expect(fast.status).to.equal(503);
    expect(fast.retryAfterSeconds).to.equal(1);
    expect(fast.details[0]).to.include({ reason: 'circuit_open', provider: 'scripted' });
    expect(inner.calls).to.equal(2);
    expect(records.some((record) => record.level === 'warn' && record.message.startsWith('circuit opened') && record.meta?.provider === 'scripted')).to.equal(true);
  });

  it('lets one trial through after halfOpenAfter: a success closes it, a failure opens it again', async () => {
    const inner = new ScriptedProvider([fail(503), fail(503), fail(503)]);
    const wrapped = wrap(inner);
    expect(wrapped.refusesCalls()).to.equal(false);
    for (let index = 0; index < 2; index += 1) await expectGatewayError(wrapped.synthesize(request()));
    expect(wrapped.refusesCalls()).to.equal(true);
    await sleep(80);
    // Still "open" until a call comes, but that call is the trial: it would not fail fast.
    expect([wrapped.state(), wrapped.refusesCalls()]).to.deep.equal(['open', false]);
    await expectGatewayError(wrapped.synthesize(request()), 'TTS_ERR_UPSTREAM');
    expect(inner.calls).to.equal(3);
    expect([wrapped.state(), wrapped.refusesCalls()]).to.deep.equal(['open', true]);
    await expectGatewayError(wrapped.synthesize(request()), 'TTS_ERR_UNAVAILABLE');
    expect(inner.calls).to.equal(3);
    inner.script = [ok];
    await sleep(80);
    await wrapped.synthesize(request());
    expect([wrapped.state(), wrapped.refusesCalls()]).to.deep.equal(['closed', false]);
    await wrapped.synthesize(request());
    expect(inner.calls).to.equal(5);
    const messages = records.map((record) => record.message);
    expect(messages.filter((message) => message.startsWith('circuit half-open'))).to.have.length(2);
    expect(messages).to.include('circuit closed');
  });

  it('does not hold a request waiting for the half-open trial past its own deadline', async () => {
    const inner = new ScriptedProvider([fail(500), fail(500), hang]);
    const wrapped = wrap(inner);
    for (let index = 0; index < 2; index += 1) await expectGatewayError(wrapped.synthesize(request()));
    await sleep(80);
    const trial = wrapped.synthesize(request({ signal: AbortSignal.timeout(400), deadline: Date.now() + 400 }));
    expect(wrapped.state()).to.equal('half-open');
    await expectGatewayError(wrapped.synthesize(request({ signal: AbortSignal.timeout(30), deadline: Date.now() + 30 })), 'TTS_ERR_TIMEOUT');
    expect(inner.calls).to.equal(3);
    await expectGatewayError(trial, 'TTS_ERR_TIMEOUT');
    // The trial's own attempt settles a few microtasks after its caller was answered.
    await new Promise((resolve) => setImmediate(resolve));
    expect(wrapped.state()).to.equal('open');
  });

  it('is not closed by a half-open trial its client cancelled: the next request is the trial, the rest wait for it', async () => {
    const inner = new ScriptedProvider([fail(500), fail(500), hang, fail(500)]);
    const wrapped = wrap(inner);
    for (let index = 0; index < 2; index += 1) await expectGatewayError(wrapped.synthesize(request()));
    await sleep(80);
    const client = new AbortController();
    const trial = wrapped.synthesize(request({ signal: client.signal }));
    expect(wrapped.state()).to.equal('half-open');
    client.abort(new GatewayError('TTS_ERR_CANCELLED', 'The client went away'));
    await expectGatewayError(trial, 'TTS_ERR_CANCELLED');
    await new Promise((resolve) => setImmediate(resolve));
    expect(wrapped.state()).to.not.equal('closed');
    expect(wrapped.refusesCalls()).to.equal(false);
    // No verdict on the provider: one new trial at once (no 503 for another halfOpenAfter), not a flood.
    const burst = [wrapped.synthesize(request()), wrapped.synthesize(request()), wrapped.synthesize(request())];
    const codes = (await Promise.allSettled(burst)).map((outcome) => (outcome.status === 'rejected' ? (outcome.reason as GatewayError).code : 'ok'));
    expect(inner.calls).to.equal(4);
    expect(codes).to.deep.equal(['TTS_ERR_UPSTREAM', 'TTS_ERR_UNAVAILABLE', 'TTS_ERR_UNAVAILABLE']);
    expect(wrapped.state()).to.equal('open');
  });

  it('is not opened by the client’s own errors', async () => {
    const inner = new ScriptedProvider([fail(400)]);
    const wrapped = wrap(inner);
    for (let index = 0; index < 5; index += 1) await expectGatewayError(wrapped.synthesize(request()), 'TTS_ERR_UPSTREAM');
    expect(wrapped.state()).to.equal('closed');
    expect(inner.calls).to.equal(5);
  });

  it('does not count the calls its caller stopped because another one failed (the other chunks of a text) as failures', async () => {
    const inner = new ScriptedProvider([fail(500), hang, hang, hang]);
    const wrapped = wrap(inner);
    // As the synthesis of a long text does: its chunks in parallel, the first failure cancels the rest with its error.
    const failFast = new AbortController();
    const chunks = [0, 1, 2, 3].map(() =>
      wrapped.synthesize(request({ signal: failFast.signal })).catch((error: unknown) => {
        failFast.abort(error);
        throw error;
      }),
    );
    const outcomes = await Promise.allSettled(chunks);
    expect(outcomes.map((outcome) => outcome.status)).to.deep.equal(['rejected', 'rejected', 'rejected', 'rejected']);
    expect(inner.calls).to.equal(4);
    // One failed provider call: one failure of two, the circuit stays closed.
    expect(wrapped.state()).to.equal('closed');
  });

  it('counts a request whose retries all failed as one failure', async () => {
    const inner = new ScriptedProvider([fail(500)]);
    const wrapped = new ResilientProvider(inner, {
      instanceId: 'scripted',
      policy: policy({ retries: 2, breaker: { failures: 2, halfOpenAfterMs: 60_000 } }),
      logger: recordingLogger(records),
      defaultTimeoutMs: 30_000,
      random: () => 0,
    });
    await expectGatewayError(wrapped.synthesize(request()));
    expect(inner.calls).to.equal(3);
    expect(wrapped.state()).to.equal('closed');
    await expectGatewayError(wrapped.synthesize(request()));
    expect(wrapped.state()).to.equal('open');
  });
});
