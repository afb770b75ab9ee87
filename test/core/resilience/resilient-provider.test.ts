import { expect } from 'chai';
import type { ResiliencePolicy } from '../../../config/types';
import {
  GatewayError,
  ResilientProvider,
  upstreamError,
  type ModelInfo,
  type ProviderAudio,
  type ProviderAudioStream,
  type ProviderSynthesisRequest,
  type TtsProvider,
  type VoiceInfo,
} from '../../../core';
import { expectGatewayError } from '../../support/gateway-error-assertions';
import { providerRequest } from '../../support/provider-request';
import { recordingLogger, type LogRecord } from '../plugin/plugin-test-helpers';

type Step = (request: ProviderSynthesisRequest) => Promise<ProviderAudio>;

const PCM: ProviderAudio = { audio: new Uint8Array(480), format: 'pcm', sampleRate: 24_000, warnings: [] };
const ok: Step = async () => PCM;
/** An HTTP error answer as core/http maps it (the provider's message, when given, read from its body). */
const upstreamFailure = (status: number, retryAfter: string | null = null, providerMessage?: string) =>
  upstreamError({ provider: 'Scripted', upstreamStatus: status, reading: providerMessage ? { providerMessage } : {}, retryAfterHeader: retryAfter });
const fail =
  (status: number, retryAfter: string | null = null, providerMessage?: string): Step =>
  async () => {
    throw upstreamFailure(status, retryAfter, providerMessage);
  };
const unreachable: Step = async () => {
  throw new GatewayError('TTS_ERR_UNAVAILABLE', 'Scripted could not be reached');
};
/** Never answers and ignores its signal: only the decorator can end the wait. */
const hang: Step = () => new Promise<ProviderAudio>(() => undefined);

/** A provider that plays one scripted step per call (the last one repeats). */
class ScriptedProvider implements TtsProvider {
  calls = 0;
  constructor(public script: Step[]) {}

  async models(): Promise<readonly ModelInfo[]> {
    return [];
  }

  async voices(): Promise<readonly VoiceInfo[]> {
    return [];
  }

  synthesize(request: ProviderSynthesisRequest): Promise<ProviderAudio> {
    const step = this.script[Math.min(this.calls, this.script.length - 1)];
    this.calls += 1;
    return step(request);
  }
}

const policy = (overrides: Partial<ResiliencePolicy> = {}): ResiliencePolicy => ({
  retries: 2,
  backoffMs: 1,
  maxBackoffMs: 5,
  breaker: { failures: 0, halfOpenAfterMs: 50 },
  ...overrides,
});

const request = (overrides: Partial<ProviderSynthesisRequest> = {}) => providerRequest({ model: 'm', voice: 'v', text: 'Hello.', requestId: 'r-1', format: 'pcm' }, overrides);
const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

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
    for (let index = 0; index < 2; index += 1) await expectGatewayError(wrapped.synthesize(request()));
    await sleep(80);
    await expectGatewayError(wrapped.synthesize(request()), 'TTS_ERR_UPSTREAM');
    expect(inner.calls).to.equal(3);
    expect(wrapped.state()).to.equal('open');
    await expectGatewayError(wrapped.synthesize(request()), 'TTS_ERR_UNAVAILABLE');
    expect(inner.calls).to.equal(3);
    inner.script = [ok];
    await sleep(80);
    await wrapped.synthesize(request());
    expect(wrapped.state()).to.equal('closed');
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

  it('is not opened by the client’s own errors', async () => {
    const inner = new ScriptedProvider([fail(400)]);
    const wrapped = wrap(inner);
    for (let index = 0; index < 5; index += 1) await expectGatewayError(wrapped.synthesize(request()), 'TTS_ERR_UPSTREAM');
    expect(wrapped.state()).to.equal('closed');
    expect(inner.calls).to.equal(5);
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

describe('core/resilience ResilientProvider: streams', () => {
  const bytes = (value: number) => new Uint8Array([value, value]);

  /** A streaming provider: each call plays the next scripted list of chunks or failures. */
  class StreamingProvider extends ScriptedProvider {
    streams = 0;
    constructor(private readonly streamScript: (Uint8Array | Error)[][]) {
      super([ok]);
    }

    async synthesizeStream(): Promise<ProviderAudioStream> {
      const parts = this.streamScript[Math.min(this.streams, this.streamScript.length - 1)];
      this.streams += 1;
      async function* chunks() {
        for (const part of parts) {
          if (part instanceof Error) throw part;
          yield part;
        }
      }
      return { format: 'pcm', sampleRate: 24_000, warnings: [], chunks: chunks() };
    }
  }

  const wrap = (inner: TtsProvider) => new ResilientProvider(inner, { instanceId: 'streaming', policy: policy(), logger: recordingLogger([]), defaultTimeoutMs: 30_000, random: () => 0 });

  async function collect(stream: ProviderAudioStream): Promise<number[]> {
    const values: number[] = [];
    for await (const chunk of stream.chunks) values.push(chunk[0]);
    return values;
  }

  it('offers synthesizeStream only when the provider has it', () => {
    expect(wrap(new ScriptedProvider([ok])).synthesizeStream).to.equal(undefined);
    expect(wrap(new StreamingProvider([[bytes(1)]])).synthesizeStream).to.be.a('function');
  });

  it('retries a stream that fails, or ends empty, before its first chunk', async () => {
    const inner = new StreamingProvider([[upstreamFailure(503)], [], [new Uint8Array(0), bytes(1), bytes(2)]]);
    const stream = await wrap(inner).synthesizeStream!(request());
    expect(await collect(stream)).to.deep.equal([1, 2]);
    expect(inner.streams).to.equal(3);
  });

  it('never retries once the first chunk was delivered: the failure reaches the consumer', async () => {
    const inner = new StreamingProvider([[bytes(1), upstreamFailure(503)], [bytes(9)]]);
    const stream = await wrap(inner).synthesizeStream!(request());
    const seen: number[] = [];
    const failure = await expectGatewayError(
      (async () => {
        for await (const chunk of stream.chunks) seen.push(chunk[0]);
      })(),
      'TTS_ERR_UPSTREAM',
    );
    expect(failure.details[0]).to.include({ upstreamStatus: 503 });
    expect(seen).to.deep.equal([1]);
    expect(inner.streams).to.equal(1);
  });
});

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
