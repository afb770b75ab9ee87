import { expect } from 'chai';
import { ResilientProvider, type ProviderAudioStream } from '../../../core';
import { PrometheusMetrics } from '../../../server/metrics/prometheus-metrics';
import { sample } from '../../support/metric-sample';
import { recordingLogger } from '../../core/plugin/plugin-test-helpers';
import { ok, policy, request, ScriptedProvider, upstreamFailure } from '../../core/resilience/scripted-provider';

/** A streaming provider whose one stream sends a piece, then fails or waits for its reader to stop. */
class OnePieceThen extends ScriptedProvider {
  constructor(private readonly after: Error | 'end') {
    super([ok]);
  }

  async synthesizeStream(): Promise<ProviderAudioStream> {
    const after = this.after;
    async function* chunks() {
      yield new Uint8Array([1, 2]);
      if (after instanceof Error) throw after;
      yield new Uint8Array([3, 4]);
    }
    return { format: 'pcm', sampleRate: 24_000, warnings: [], chunks: chunks() };
  }
}

describe('metrics: a provider stream that breaks off after its first audio', () => {
  const failures: unknown[] = [];
  const wrap = (inner: ScriptedProvider, metrics: PrometheusMetrics) =>
    new ResilientProvider(inner, { instanceId: 'streamer', policy: policy(), logger: recordingLogger([]), defaultTimeoutMs: 30_000, random: () => 0, metrics, onFailure: (error) => failures.push(error) });
  beforeEach(() => (failures.length = 0));

  it('is a failed provider call: counted in tts_gateway_upstream_errors_total and kept as the provider\'s last error', async () => {
    const metrics = new PrometheusMetrics();
    const stream = await wrap(new OnePieceThen(upstreamFailure(503)), metrics).synthesizeStream!(request());
    const read = (async () => {
      for await (const chunk of stream.chunks) expect(chunk.byteLength).to.equal(2);
    })();
    await read.then(
      () => expect.fail('the stream should fail'),
      (error: { code?: string }) => expect(error.code).to.equal('TTS_ERR_UPSTREAM'),
    );
    const exposition = (await metrics.exposition()).body;
    expect(sample(exposition, 'tts_gateway_upstream_errors_total', { provider: 'streamer', code: 'TTS_ERR_UPSTREAM' })).to.equal(1);
    expect(failures).to.have.length(1);
  });

  it('is not counted when the reader stopped (a client that left), nor when the stream ends well', async () => {
    const metrics = new PrometheusMetrics();
    const provider = wrap(new OnePieceThen('end'), metrics);
    for await (const chunk of (await provider.synthesizeStream!(request())).chunks) expect(chunk.byteLength).to.equal(2);
    const abandoned = await provider.synthesizeStream!(request());
    for await (const chunk of abandoned.chunks) if (chunk.byteLength > 0) break;
    const exposition = (await metrics.exposition()).body;
    expect(exposition).to.not.match(/^tts_gateway_upstream_errors_total\{/m);
    expect(failures).to.have.length(0);
  });
});
