import { expect } from 'chai';
import { ResilientProvider, type ProviderAudioStream, type TtsProvider } from '../../../core';
import { expectGatewayError } from '../../support/gateway-error-assertions';
import { recordingLogger } from '../plugin/plugin-test-helpers';
import { ok, policy, request, ScriptedProvider, upstreamFailure } from './scripted-provider';

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

  /** A provider whose streams each record their signal; the first chunk waits `firstChunkMs`, later ones `laterChunkMs`. */
  class TimedStreams extends ScriptedProvider {
    readonly signals: AbortSignal[] = [];
    constructor(private readonly plan: { failFirst: boolean; firstChunkMs: number; laterChunkMs: number }) {
      super([ok]);
    }

    async synthesizeStream(attempt: { signal: AbortSignal }): Promise<ProviderAudioStream> {
      this.signals.push(attempt.signal);
      const failing = this.plan.failFirst && this.signals.length === 1;
      const { firstChunkMs, laterChunkMs } = this.plan;
      async function* chunks() {
        await new Promise((resolve) => setTimeout(resolve, firstChunkMs));
        if (failing) throw upstreamFailure(503);
        yield bytes(1);
        await new Promise((resolve) => setTimeout(resolve, laterChunkMs));
        yield bytes(2);
      }
      return { format: 'pcm', sampleRate: 24_000, warnings: [], chunks: chunks() };
    }
  }

  const wrapWithDeadline = (inner: TtsProvider, defaultTimeoutMs: number) =>
    new ResilientProvider(inner, { instanceId: 'streaming', policy: policy(), logger: recordingLogger([]), defaultTimeoutMs, random: () => 0 });

  it('tells a failed attempt to stop, and not the retry that follows it', async () => {
    const inner = new TimedStreams({ failFirst: true, firstChunkMs: 1, laterChunkMs: 1 });
    const stream = await wrapWithDeadline(inner, 30_000).synthesizeStream!(request());
    expect(await collect(stream)).to.deep.equal([1, 2]);
    expect(inner.signals).to.have.length(2);
    expect(inner.signals[0].aborted).to.equal(true);
    expect(inner.signals[1].aborted).to.equal(false);
  });

  it('bounds a stream by the deadline until its first chunk only: a stream may then last longer', async () => {
    const inner = new TimedStreams({ failFirst: false, firstChunkMs: 1, laterChunkMs: 120 });
    const stream = await wrapWithDeadline(inner, 60).synthesizeStream!(request());
    expect(await collect(stream)).to.deep.equal([1, 2]);
    expect(inner.signals[0].aborted).to.equal(false);
  });

  it("aborts a stream's signal at the deadline while its first chunk is awaited, and when the caller leaves after", async () => {
    const slow = new TimedStreams({ failFirst: false, firstChunkMs: 500, laterChunkMs: 1 });
    await expectGatewayError(wrapWithDeadline(slow, 40).synthesizeStream!(request()), 'TTS_ERR_TIMEOUT');
    expect(slow.signals[0].aborted).to.equal(true);

    const caller = new AbortController();
    const following = new TimedStreams({ failFirst: false, firstChunkMs: 1, laterChunkMs: 1 });
    await wrapWithDeadline(following, 30_000).synthesizeStream!(request({ signal: caller.signal }));
    caller.abort();
    expect(following.signals[0].aborted).to.equal(true);
  });
});
