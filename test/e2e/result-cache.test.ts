import { expect } from 'chai';
import request from 'supertest';
import type { LoadedProvider } from '../../core';
import { TOKENS } from '../../server/container-tokens';
import { startTestGateway } from './gateway-harness';

/** The result cache on the real gateway: a repeat calls no provider and gets its own link. */
describe('e2e: result cache on the zero-config gateway', function () {
  this.timeout(60_000);
  let harness: Awaited<ReturnType<typeof startTestGateway>>;
  let keys: string[];
  let providerCalls = 0;

  before(async () => {
    harness = await startTestGateway();
    const [espeak] = harness.gateway.container.resolve<LoadedProvider[]>(TOKENS.providers);
    const synthesize = espeak.provider.synthesize.bind(espeak.provider);
    espeak.provider.synthesize = (providerRequest) => {
      providerCalls += 1;
      return synthesize(providerRequest);
    };
    keys = [];
    for (const email of ['first@example.com', 'second@example.com']) {
      const registered = await request(harness.gateway.app).post('/api/v1/auth/register').send({ email, password: 'correct horse battery' });
      keys.push(registered.body.data.apiKey);
    }
  });
  after(async () => harness?.dispose());

  const body = { model: 'espeak-ng', voice: 'en-us', text: 'A sentence worth caching.', format: 'wav' };
  const download = async (audioUrl: string) => (await request(harness.gateway.app).get(new URL(audioUrl).pathname).buffer(true)).body as Buffer;

  it('answers an identical request from another account from the cache, under its own link', async () => {
    const first = await request(harness.gateway.app).post('/api/v1/common/tts-sync').set('X-API-Key', keys[0]).send(body).expect(200);
    const callsAfterFirst = providerCalls;
    const second = await request(harness.gateway.app).post('/api/v1/common/tts-sync').set('X-API-Key', keys[1]).send({ ...body, text: ' A sentence  worth caching. ' }).expect(200);
    expect(first.headers['x-tts-cache']).to.equal('miss');
    expect(second.headers['x-tts-cache']).to.equal('hit');
    expect(providerCalls).to.equal(callsAfterFirst);
    expect(second.body.data.audio_url).not.to.equal(first.body.data.audio_url);
    expect(Buffer.compare(await download(second.body.data.audio_url), await download(first.body.data.audio_url))).to.equal(0);
  });

  it('serves the same cached audio to /v1 as a stream, and calls the provider again for no-store', async () => {
    const streamed = await request(harness.gateway.app)
      .post('/api/v1/common/tts-stream')
      .set('X-API-Key', keys[0])
      .send(body)
      .buffer(true)
      .parse((response, done) => {
        const parts: Buffer[] = [];
        response.on('data', (part: Buffer) => parts.push(part));
        response.on('end', () => done(null, Buffer.concat(parts)));
      })
      .expect(200);
    expect(streamed.headers['x-tts-cache']).to.equal('hit');
    const before = providerCalls;
    const bypass = await request(harness.gateway.app).post('/api/v1/common/tts-sync').set('X-API-Key', keys[0]).set('Cache-Control', 'no-store').send(body).expect(200);
    expect(bypass.headers['x-tts-cache']).to.equal('miss');
    expect(providerCalls).to.be.greaterThan(before);
  });
});
