import { expect } from 'chai';
import request from 'supertest';
import { startTestGateway } from './gateway-harness';
import { sample } from '../support/metric-sample';

/** The real gateway feeds the metrics that live outside the HTTP layer: upstream calls, the cache, breakers, the queue. */
describe('e2e: metrics fed by the synthesis path', function () {
  this.timeout(60_000);
  let harness: Awaited<ReturnType<typeof startTestGateway>>;
  let apiKey: string;

  before(async () => {
    harness = await startTestGateway();
    const registered = await request(harness.gateway.app).post('/api/v1/auth/register').send({ email: 'metrics@example.com', password: 'correct horse battery' });
    apiKey = registered.body.data.apiKey;
  });
  after(async () => harness?.dispose());

  it('counts provider calls, result-cache misses and hits, the breaker state and the audio queue depth', async () => {
    const body = { model: 'espeak-ng', voice: 'en-us', text: 'Counted by the metrics.', format: 'mp3' };
    await request(harness.gateway.app).post('/api/v1/common/tts-sync').set('X-API-Key', apiKey).send(body).expect(200);
    await request(harness.gateway.app).post('/api/v1/common/tts-sync').set('X-API-Key', apiKey).send(body).expect(200);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const exposition = (await request(harness.gateway.app).get('/metrics').expect(200)).text;
    expect(sample(exposition, 'tts_gateway_upstream_request_duration_seconds_count', { provider: 'espeak', outcome: 'success' })).to.be.at.least(1);
    expect(sample(exposition, 'tts_gateway_cache_misses_total', { cache: 'results' })).to.equal(1);
    expect(sample(exposition, 'tts_gateway_cache_hits_total', { cache: 'results' })).to.equal(1);
    expect(sample(exposition, 'tts_gateway_breaker_state', { provider: 'espeak' })).to.equal(0);
    expect(exposition).to.match(/^tts_gateway_audio_worker_queue_depth \d+$/m);
  });
});
