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
});
