import { expect } from 'chai';
import request from 'supertest';
import { GatewayError } from '../../../core';
import { PrometheusMetrics } from '../../../server/metrics/prometheus-metrics';
import { buildTestApp, type TestApp } from '../support/test-app';
import { sample } from '../../support/metric-sample';

const EVERY_METRIC = [
  'tts_gateway_http_requests_total',
  'tts_gateway_http_request_duration_seconds',
  'tts_gateway_http_requests_in_flight',
  'tts_gateway_synthesis_requests_total',
  'tts_gateway_synthesis_characters_total',
  'tts_gateway_synthesis_audio_seconds_total',
  'tts_gateway_synthesis_duration_seconds',
  'tts_gateway_synthesis_time_to_first_byte_seconds',
  'tts_gateway_upstream_request_duration_seconds',
  'tts_gateway_upstream_errors_total',
  'tts_gateway_upstream_retries_total',
  'tts_gateway_cache_hits_total',
  'tts_gateway_cache_misses_total',
  'tts_gateway_breaker_state',
  'tts_gateway_audio_worker_queue_depth',
];

describe('server GET /metrics', () => {
  let testApp: TestApp;
  afterEach(() => testApp.close());

  it('names every metric from the first scrape, in the Prometheus text format', async () => {
    testApp = await buildTestApp();
    const response = await request(testApp.app).get('/metrics').expect(200).expect('Content-Type', /^text\/plain; version=0\.0\.4/);
    for (const name of EVERY_METRIC) expect(response.text, name).to.include(`# TYPE ${name} `);
  });

  it('counts requests by route pattern and status, never by the URL', async () => {
    testApp = await buildTestApp();
    const { apiKey } = await testApp.register('grace@example.com');
    const synthesis = await request(testApp.app).post('/api/v1/common/tts-sync').set('X-API-Key', apiKey).send({ model: 'espeak-ng', voice: 'en-us', text: 'Hi' }).expect(200);
    const fileName = new URL(synthesis.body.data.audio_url).pathname.split('/').pop() ?? '';
    // HEAD: the answer ends at once, so it is counted before the client has it (a streamed GET
    // whose client closes right after the last byte can be counted as 499 instead).
    await request(testApp.app).head(`/api/v1/audio/download/${fileName}`).expect(200);
    await request(testApp.app).head(`/api/v1/audio/download/${fileName}`).expect(200);
    await request(testApp.app).get('/api/v1/tools/models').expect(401);
    await request(testApp.app).get('/no/such/secret-path').expect(404);
    const exposition = (await request(testApp.app).get('/metrics').expect(200)).text;
    expect(sample(exposition, 'tts_gateway_http_requests_total', { method: 'HEAD', route: '/api/v1/audio/download/:file', status: '200' })).to.equal(2);
    expect(sample(exposition, 'tts_gateway_http_requests_total', { method: 'GET', route: '/api/v1/tools/models', status: '401' })).to.equal(1);
    expect(sample(exposition, 'tts_gateway_http_requests_total', { method: 'GET', route: '(unmatched)', status: '404' })).to.equal(1);
    expect(sample(exposition, 'tts_gateway_http_request_duration_seconds_count', { method: 'POST', route: '/api/v1/common/tts-sync' })).to.equal(1);
    for (const secret of [fileName, apiKey, 'grace@example.com', 'secret-path']) expect(exposition).to.not.include(secret);
  });

  it('asks for the bearer token when metrics.token is set', async () => {
    testApp = await buildTestApp({ metricsToken: 'scrape-secret-123' });
    const refused = await request(testApp.app).get('/metrics').expect(401);
    expect(refused.headers['www-authenticate']).to.equal('Bearer realm="metrics"');
    expect(refused.body.error.code).to.equal('TTS_ERR_UNAUTHORIZED');
    await request(testApp.app).get('/metrics').set('Authorization', 'Bearer wrong-secret-123').expect(401);
    await request(testApp.app).get('/metrics').set('X-API-Key', 'scrape-secret-123').expect(401);
    await request(testApp.app).get('/metrics').set('Authorization', 'Bearer scrape-secret-123').expect(200);
  });
});

describe('PrometheusMetrics (core Metrics port)', () => {
  it('counts syntheses by model, provider and outcome, with characters and latency', async () => {
    const metrics = new PrometheusMetrics();
    metrics.synthesisFinished({ model: 'tts-1', provider: 'openai', outcome: 'success', characters: 120, audioSeconds: 7.5, seconds: 0.8 });
    metrics.synthesisFinished({ model: 'tts-1', provider: 'openai', outcome: 'upstream_error', characters: 30, audioSeconds: 0, seconds: 0.2 });
    metrics.synthesisFirstByte({ model: 'tts-1', provider: 'openai' }, 0.15);
    const { body } = await metrics.exposition();
    expect(sample(body, 'tts_gateway_synthesis_requests_total', { model: 'tts-1', provider: 'openai', outcome: 'success' })).to.equal(1);
    expect(sample(body, 'tts_gateway_synthesis_requests_total', { model: 'tts-1', provider: 'openai', outcome: 'upstream_error' })).to.equal(1);
    expect(sample(body, 'tts_gateway_synthesis_characters_total', { model: 'tts-1', provider: 'openai' })).to.equal(150);
    expect(sample(body, 'tts_gateway_synthesis_audio_seconds_total', { model: 'tts-1', provider: 'openai' })).to.equal(7.5);
    expect(sample(body, 'tts_gateway_synthesis_duration_seconds_bucket', { model: 'tts-1', provider: 'openai', outcome: 'success', le: '1' })).to.equal(1);
    expect(sample(body, 'tts_gateway_synthesis_time_to_first_byte_seconds_bucket', { model: 'tts-1', provider: 'openai', le: '0.1' })).to.equal(0);
    expect(sample(body, 'tts_gateway_synthesis_time_to_first_byte_seconds_bucket', { model: 'tts-1', provider: 'openai', le: '0.25' })).to.equal(1);
  });

  it('counts upstream calls, errors, retries, cache lookups, breaker state and queue depth', async () => {
    const metrics = new PrometheusMetrics();
    metrics.upstreamCall({ provider: 'openai', seconds: 0.3 });
    metrics.upstreamCall({ provider: 'openai', seconds: 1.2, errorCode: new GatewayError('TTS_ERR_UPSTREAM', 'x').code });
    metrics.upstreamRetry('openai', 'TTS_ERR_UPSTREAM');
    metrics.cacheLookup('results', true);
    metrics.cacheLookup('results', false);
    metrics.cacheLookup('results', false);
    metrics.breakerState('openai', 'open');
    metrics.audioQueueDepth(3);
    const { body } = await metrics.exposition();
    expect(sample(body, 'tts_gateway_upstream_request_duration_seconds_count', { provider: 'openai', outcome: 'success' })).to.equal(1);
    expect(sample(body, 'tts_gateway_upstream_errors_total', { provider: 'openai', code: 'TTS_ERR_UPSTREAM' })).to.equal(1);
    expect(sample(body, 'tts_gateway_upstream_retries_total', { provider: 'openai', reason: 'TTS_ERR_UPSTREAM' })).to.equal(1);
    expect(sample(body, 'tts_gateway_cache_hits_total', { cache: 'results' })).to.equal(1);
    expect(sample(body, 'tts_gateway_cache_misses_total', { cache: 'results' })).to.equal(2);
    expect(sample(body, 'tts_gateway_breaker_state', { provider: 'openai' })).to.equal(2);
    expect(body).to.match(/^tts_gateway_audio_worker_queue_depth 3$/m);
  });

  it('never puts an email, a key or free text in a label, and bounds the number of values', async () => {
    const metrics = new PrometheusMetrics();
    const key = 'ttsg_VEcI9xg8Ra1vgN45qdFAqSbN2tUt_kERDfaLrzGyheA';
    for (const model of ['ada@example.com', key, 'Say "hello" to everyone, please.\nNow.']) {
      metrics.synthesisFinished({ model, provider: 'espeak', outcome: 'client_error', characters: 1, audioSeconds: 0, seconds: 0.01 });
    }
    for (let index = 0; index < 600; index += 1) metrics.cacheLookup(`cache-${index}`, true);
    const { body } = await metrics.exposition();
    for (const secret of ['ada@example.com', key, 'hello']) expect(body).to.not.include(secret);
    expect(sample(body, 'tts_gateway_synthesis_requests_total', { model: '(other)', provider: 'espeak', outcome: 'client_error' })).to.equal(3);
    expect(sample(body, 'tts_gateway_cache_hits_total', { cache: '(other)' })).to.equal(100);
  });

  it('adds Node process metrics when asked', async () => {
    const { body } = await new PrometheusMetrics({ processMetrics: true }).exposition();
    expect(body).to.include('# TYPE process_cpu_seconds_total counter');
    expect(body).to.include('# TYPE nodejs_eventloop_lag_seconds gauge');
  });
});
