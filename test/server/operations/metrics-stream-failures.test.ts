import { expect } from 'chai';
import { eventually } from '../../support/eventually';
import { failingAfterFirstPiece, postStreamToItsEnd } from '../support/failing-stream';
import { buildTestApp, type TestApp } from '../support/test-app';
import { sample } from '../../support/metric-sample';

describe('server GET /metrics: a stream the gateway cut because its synthesis failed', () => {
  let testApp: TestApp;
  afterEach(() => testApp.close());

  it('is not counted as a client that left (499): the failure is the server side\'s', async () => {
    testApp = await buildTestApp({ stream: failingAfterFirstPiece });
    const { apiKey } = await testApp.register();
    await postStreamToItsEnd(testApp.app, apiKey);
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
