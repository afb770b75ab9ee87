import { expect } from 'chai';
import type { ServerResponse } from 'node:http';
import { ResilientProvider, upstreamAudioStream, upstreamStream, type ProviderAudioStream, type ProviderSynthesisRequest } from '../../../core';
import { expectGatewayError } from '../../support/gateway-error-assertions';
import { startUpstream } from '../http/local-upstream';
import { recordingLogger } from '../plugin/plugin-test-helpers';
import { ok, policy, request, ScriptedProvider } from './scripted-provider';

/** How the stand-in upstream answers: its first chunk, then a cut connection, silence, or the rest and the end. */
type Answer = 'breaks' | 'holds' | 'whole';

describe('core/resilience ResilientProvider: streams that break off count against the circuit', () => {
  let answer: Answer = 'breaks';
  let upstream: Awaited<ReturnType<typeof startUpstream>>;
  let requests = 0;

  before(async () => {
    upstream = await startUpstream((_request, _body, response: ServerResponse) => {
      requests += 1;
      response.writeHead(200, { 'content-type': 'audio/pcm' });
      response.write(new Uint8Array(480));
      // The socket is cut once the first chunk is surely out: the client sees a body that broke off.
      if (answer === 'breaks') setTimeout(() => response.socket?.destroy(), 20);
      if (answer === 'whole') response.end(new Uint8Array(480));
    });
  });
  after(() => upstream.close());
  beforeEach(() => {
    answer = 'breaks';
    requests = 0;
  });

  /** A streaming provider over real HTTP, as the plugins stream. */
  class HttpStreams extends ScriptedProvider {
    constructor() {
      super([ok]);
    }

    async synthesizeStream(attempt: ProviderSynthesisRequest): Promise<ProviderAudioStream> {
      const response = await upstreamStream({ provider: 'StandIn', fetch, url: `${upstream.base}/speech`, method: 'POST', body: '{}', timeoutMs: 5_000, signal: attempt.signal });
      return { format: 'pcm', sampleRate: 24_000, warnings: [], chunks: upstreamAudioStream('StandIn', response) };
    }
  }

  const wrap = () =>
    new ResilientProvider(new HttpStreams(), { instanceId: 'stand-in', policy: policy({ retries: 0, breaker: { failures: 2, halfOpenAfterMs: 60_000 } }), logger: recordingLogger([]), defaultTimeoutMs: 30_000 });

  /** Reads a stream to its end; resolves with the failure it broke off with, if any. */
  async function readToEnd(stream: ProviderAudioStream): Promise<unknown> {
    try {
      for await (const chunk of stream.chunks) void chunk;
      return undefined;
    } catch (error) {
      return error;
    }
  }

  it('opens after `failures` streams in a row that broke off after their first chunk: the next one is refused, unsent', async () => {
    const wrapped = wrap();
    for (let index = 0; index < 2; index += 1) {
      const failure = await readToEnd(await wrapped.synthesizeStream!(request()));
      expect(failure).to.have.property('code', 'TTS_ERR_UPSTREAM_BAD_RESPONSE');
    }
    expect(wrapped.state()).to.equal('open');
    expect(wrapped.refusesCallersWithFallback()).to.equal(true);
    const refused = await expectGatewayError(wrapped.synthesizeStream!(request()), 'TTS_ERR_UNAVAILABLE');
    expect(refused.details[0]).to.include({ reason: 'circuit_open', provider: 'stand-in' });
    expect(requests).to.equal(2);
  });

  it('counts a stream that ran to its end as a success: it breaks the run of failures', async () => {
    const wrapped = wrap();
    await readToEnd(await wrapped.synthesizeStream!(request()));
    answer = 'whole';
    expect(await readToEnd(await wrapped.synthesizeStream!(request()))).to.equal(undefined);
    answer = 'breaks';
    await readToEnd(await wrapped.synthesizeStream!(request()));
    expect(wrapped.state()).to.equal('closed');
  });

  it('does not count streams whose client left mid-stream, nor streams their reader stopped (a limit of the gateway)', async () => {
    answer = 'holds';
    const wrapped = wrap();
    for (let index = 0; index < 3; index += 1) {
      const client = new AbortController();
      const stream = await wrapped.synthesizeStream!(request({ signal: client.signal }));
      const reading = readToEnd(stream);
      client.abort();
      expect(await reading).to.have.property('code', 'TTS_ERR_CANCELLED');
    }
    for (let index = 0; index < 3; index += 1) {
      const stream = await wrapped.synthesizeStream!(request());
      for await (const chunk of stream.chunks) if (chunk.length > 0) break;
    }
    expect(wrapped.state()).to.equal('closed');
    expect(requests).to.equal(6);
  });
});
