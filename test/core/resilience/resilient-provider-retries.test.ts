import { expect } from 'chai';
import type { ResiliencePolicy } from '../../../config/types';
import { GatewayError, ResilientProvider, upstreamError, type ProviderAudio, type TtsProvider } from '../../../core';
import { expectGatewayError } from '../../support/gateway-error-assertions';
import { recordingLogger, type LogRecord } from '../plugin/plugin-test-helpers';
import { fail, hang, ok, PCM, policy, request, ScriptedProvider, unreachable } from './scripted-provider';

describe('core/resilience ResilientProvider: retries and deadlines', () => {
  let records: LogRecord[];
  beforeEach(() => {
    records = [];
  });

  const wrap = (inner: TtsProvider, overrides: Partial<ResiliencePolicy> = {}, defaultTimeoutMs = 30_000) =>
    new ResilientProvider(inner, { instanceId: 'scripted', policy: policy(overrides), logger: recordingLogger(records), defaultTimeoutMs, random: () => 0 });

  for (const [name, step] of [
    ['a 500', fail(500)],
    ['a 503', fail(503)],
    ['a 408', fail(408)],
    ['an unreachable upstream', unreachable],
    ['a 429', fail(429, '0')],
  ] as const) {
    it(`retries ${name} and answers the next success`, async () => {
      const inner = new ScriptedProvider([step, step, ok]);
      const audio = await wrap(inner).synthesize(request());
      expect(audio.audio.byteLength).to.equal(480);
      expect(inner.calls).to.equal(3);
    });
  }

  it('gives up after `retries` more attempts and answers the last failure', async () => {
    const inner = new ScriptedProvider([fail(502)]);
    const error = await expectGatewayError(wrap(inner).synthesize(request()), 'TTS_ERR_UPSTREAM');
    expect(error.details[0]).to.include({ upstreamStatus: 502 });
    expect(inner.calls).to.equal(3);
  });

  for (const [name, step, code] of [
    ['a 400', fail(400, null, 'bad voice'), 'TTS_ERR_UPSTREAM'],
    ['a 404', fail(404), 'TTS_ERR_UPSTREAM'],
    ['a 422', fail(422), 'TTS_ERR_UPSTREAM'],
    ['a 401 (credentials)', fail(401), 'TTS_ERR_UPSTREAM_AUTH'],
    ['a billing stop (a 429 with insufficient_quota)', async () => {
      throw upstreamError({ provider: 'Scripted', upstreamStatus: 429, reading: { failure: 'quota', providerCode: 'insufficient_quota' } });
    }, 'TTS_ERR_UPSTREAM_QUOTA'],
    ['a 402', fail(402), 'TTS_ERR_UPSTREAM_QUOTA'],
  ] as const) {
    it(`never retries ${name}`, async () => {
      const inner = new ScriptedProvider([step, ok]);
      await expectGatewayError(wrap(inner).synthesize(request()), code);
      expect(inner.calls).to.equal(1);
    });
  }

  it('never retries a provider error without an HTTP status, nor a cancellation', async () => {
    const coded = new ScriptedProvider([
      async () => {
        throw new GatewayError('TTS_ERR_UPSTREAM', 'MiniMax failed with status 2013', { details: [{ reason: 'upstream_status', providerCode: '2013' }] });
      },
      ok,
    ]);
    await expectGatewayError(wrap(coded).synthesize(request()), 'TTS_ERR_UPSTREAM');
    expect(coded.calls).to.equal(1);
    const client = new AbortController();
    const cancelled = new ScriptedProvider([
      async () => {
        client.abort(new GatewayError('TTS_ERR_CANCELLED', 'The client went away'));
        throw new GatewayError('TTS_ERR_UNAVAILABLE', 'connection dropped');
      },
      ok,
    ]);
    await expectGatewayError(wrap(cancelled).synthesize(request({ signal: client.signal })), 'TTS_ERR_CANCELLED');
    expect(cancelled.calls).to.equal(1);
  });

  it('retries answers that are not audio: empty, text on pcm, unknown bytes on mp3', async () => {
    const inner = new ScriptedProvider([
      async () => ({ ...PCM, audio: new Uint8Array(0) }),
      async () => ({ ...PCM, audio: new TextEncoder().encode('{"error":"overloaded"}') }),
      ok,
    ]);
    expect((await wrap(inner).synthesize(request())).format).to.equal('pcm');
    expect(inner.calls).to.equal(3);
    const garbage = new ScriptedProvider([async () => ({ audio: new Uint8Array([1, 2, 3, 4]), format: 'mp3', warnings: [] })]);
    await expectGatewayError(wrap(garbage, { retries: 1 }).synthesize(request({ format: 'mp3' })), 'TTS_ERR_UPSTREAM_BAD_RESPONSE');
    expect(garbage.calls).to.equal(2);
  });

  it('waits at least the Retry-After the upstream asked for', async () => {
    const inner = new ScriptedProvider([fail(429, '1'), ok]);
    await wrap(inner).synthesize(request());
    expect(inner.calls).to.equal(2);
    // The jitter draws 0 here: the planned wait is the upstream's, not the backoff's.
    const retries = records.filter((record) => record.message === 'retrying provider call');
    expect(retries.map((record) => record.meta?.delayMs)).to.deep.equal([1000]);
  });

  it('waits at least the Retry-After of a 503 too (a provider down for maintenance or overloaded says when to come back)', async () => {
    const inner = new ScriptedProvider([fail(503, '1'), ok]);
    await wrap(inner).synthesize(request());
    expect(inner.calls).to.equal(2);
    const retries = records.filter((record) => record.message === 'retrying provider call');
    expect(retries.map((record) => record.meta?.delayMs)).to.deep.equal([1000]);
    const late = new ScriptedProvider([fail(503, '30'), ok]);
    const error = await expectGatewayError(wrap(late).synthesize(request({ deadline: Date.now() + 2_000 })), 'TTS_ERR_UPSTREAM');
    expect(error.retryAfterSeconds).to.equal(30);
    expect(late.calls).to.equal(1);
  });

  it('answers at once when the Retry-After would end past the deadline', async () => {
    const inner = new ScriptedProvider([fail(429, '30'), ok]);
    const error = await expectGatewayError(wrap(inner).synthesize(request({ deadline: Date.now() + 2_000 })), 'TTS_ERR_RATE_LIMITED');
    expect(error.retryAfterSeconds).to.equal(30);
    expect(inner.calls).to.equal(1);
  });

  it('answers a provider that hangs (and ignores its signal) with 504 when the deadline passes, without retrying', async () => {
    const inner = new ScriptedProvider([hang, ok]);
    const error = await expectGatewayError(wrap(inner, {}, 100).synthesize(request()), 'TTS_ERR_TIMEOUT');
    expect(error.status).to.equal(504);
    expect(inner.calls).to.equal(1);
  });

  it('turns a cancellation caused by the request deadline into a 504', async () => {
    const inner = new ScriptedProvider([
      (attempt) =>
        new Promise<ProviderAudio>((_resolve, reject) => {
          attempt.signal.addEventListener('abort', () => reject(new GatewayError('TTS_ERR_CANCELLED', 'The call to Scripted was cancelled')));
        }),
    ]);
    const deadline = AbortSignal.timeout(50);
    await expectGatewayError(wrap(inner).synthesize(request({ signal: deadline, deadline: Date.now() + 50 })), 'TTS_ERR_TIMEOUT');
    expect(inner.calls).to.equal(1);
  });

  it('passes models, voices, warm-up and close through untouched', async () => {
    let closed = false;
    const inner = new ScriptedProvider([ok]);
    const withLifecycle = Object.assign(inner, { close: async () => void (closed = true) });
    const wrapped = wrap(withLifecycle);
    expect(wrapped.warmUp).to.equal(undefined);
    await wrapped.close?.();
    expect(closed).to.equal(true);
    expect(await wrapped.models()).to.deep.equal([]);
  });
});
