import { expect } from 'chai';
import request from 'supertest';
import { eventually } from '../../support/eventually';
import { failingAfterFirstPiece } from '../support/failing-stream';
import { buildTestApp, type TestApp } from '../support/test-app';

/** The value of one sample line of the exposition (exactly these labels), or undefined. */
function sample(exposition: string, name: string, labels: Record<string, string>): number | undefined {
  const wanted = Object.entries(labels).map(([key, value]) => `${key}="${value}"`);
  for (const line of exposition.split('\n')) {
    if (!line.startsWith(`${name}{`)) continue;
    const present = line.slice(name.length + 1, line.indexOf('}')).split(',');
    if (wanted.every((pair) => present.includes(pair)) && present.length === wanted.length) return Number(line.slice(line.indexOf('}') + 1));
  }
  return undefined;
}

describe('server GET /metrics: a stream the gateway cut because its synthesis failed', () => {
  let testApp: TestApp;
  afterEach(() => testApp.close());

  it('is not counted as a client that left (499): the failure is the server side\'s', async () => {
    testApp = await buildTestApp({ stream: failingAfterFirstPiece });
    const { apiKey } = await testApp.register();
    await request(testApp.app)
      .post('/api/v1/common/tts-stream')
      .set('X-API-Key', apiKey)
      .send({ model: 'espeak-ng', text: 'Hello world', voice: 'en-us' })
      .then(
        () => undefined,
        () => undefined,
      );
    const route = { method: 'POST', route: '/api/v1/common/tts-stream' };
    await eventually(async () => {
      const exposition = (await testApp.metrics.exposition()).body;
      expect(sample(exposition, 'tts_gateway_http_request_duration_seconds_count', route)).to.equal(1);
    });
    const exposition = (await testApp.metrics.exposition()).body;
    expect(sample(exposition, 'tts_gateway_http_requests_total', { ...route, status: '499' }), 'counted as 499 (client closed)').to.equal(undefined);
    // The status of the failure that cut it (TTS_ERR_UPSTREAM), so a 5xx alert sees a provider breaking off mid-stream.
    expect(sample(exposition, 'tts_gateway_http_requests_total', { ...route, status: '502' })).to.equal(1);
  });
});
