import { expect } from 'chai';
import { createPooledFetch, type GatewayError, upstreamFetch, upstreamStream, type PooledFetch } from '../../../core';
import { startUpstream } from './local-upstream';

/**
 * An answer that began (200, some audio) and whose connection then dropped reached the client as
 * "<provider> is unavailable: it could not be reached" (503 TTS_ERR_UNAVAILABLE, reason
 * upstream_unreachable): the provider was reached and answered; its answer broke off. A stream's
 * SSE error event and the log said the wrong thing.
 */
describe('core/http upstreamStream and upstreamFetch: an answer that breaks off after it began', () => {
  let pooled: PooledFetch;
  let upstream: Awaited<ReturnType<typeof startUpstream>>;

  before(async () => {
    pooled = createPooledFetch();
    upstream = await startUpstream((request, body, response) => {
      response.writeHead(200, { 'content-type': 'audio/mpeg', 'content-length': 10_000 });
      response.write(Buffer.alloc(1000, 1), () => request.socket.destroy());
    });
  });
  after(async () => {
    await pooled.close();
    await upstream.close();
  });

  async function failureOf(fetchImpl: typeof fetch): Promise<GatewayError> {
    const answer = await upstreamStream({ provider: 'Stand-in', fetch: fetchImpl, url: `${upstream.base}/audio`, timeoutMs: 5000 });
    try {
      for await (const _piece of answer.chunks);
    } catch (error) {
      return error as GatewayError;
    }
    throw new Error('the stream did not fail');
  }

  const expectBrokenOff = (failure: GatewayError): void => {
    expect(failure.code).to.equal('TTS_ERR_UPSTREAM_BAD_RESPONSE');
    expect(failure.message).to.equal('Stand-in sent an unusable answer: its answer broke off before its end');
    expect(failure.details).to.deep.equal([{ reason: 'upstream_broken_off', provider: 'Stand-in' }]);
  };

  for (const [name, fetchImpl] of [
    ['the pooled fetch', () => pooled.fetch],
    ["Node's fetch (a web stream body)", () => fetch],
  ] as const) {
    it(`says the answer broke off, not that the provider could not be reached (${name})`, async () => {
      expectBrokenOff(await failureOf(fetchImpl()));
    });

    it(`says so for a whole answer read at once too (a stream's chunk call, tts-sync) (${name})`, async () => {
      const failure = await upstreamFetch({ provider: 'Stand-in', fetch: fetchImpl(), url: `${upstream.base}/audio`, timeoutMs: 5000 }).then(
        () => undefined,
        (error: GatewayError) => error,
      );
      expectBrokenOff(failure!);
    });
  }
});
