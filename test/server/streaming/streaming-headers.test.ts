import { expect } from 'chai';
import request from 'supertest';
import { buildTestApp, type TestApp } from '../support/test-app';

/**
 * Every answer sent as it is made carries the same headers: not stored, not sniffed, and not
 * buffered by nginx. The SSE answer lacked `X-Accel-Buffering: no`, so nginx (which buffers a
 * proxied answer by default) held its deltas back until its buffers filled.
 */
describe('server: the headers of streamed answers', () => {
  let testApp: TestApp;
  afterEach(() => testApp.close());

  it('sends no-store, nosniff and X-Accel-Buffering: no on tts-stream, /v1 audio and /v1 SSE alike', async () => {
    testApp = await buildTestApp();
    const { apiKey } = await testApp.register();
    const speech = { model: 'tts-1', input: 'Hello world', voice: 'alloy' };
    const answers = {
      'tts-stream': await request(testApp.app).post('/api/v1/common/tts-stream').set('X-API-Key', apiKey).send({ model: 'espeak-ng', voice: 'en-us', text: 'Hello world' }),
      '/v1 audio': await request(testApp.app).post('/v1/audio/speech').set('Authorization', `Bearer ${apiKey}`).send(speech),
      '/v1 sse': await request(testApp.app).post('/v1/audio/speech').set('Authorization', `Bearer ${apiKey}`).send({ ...speech, stream_format: 'sse' }),
    };
    expect(answers['/v1 sse'].headers['content-type']).to.match(/^text\/event-stream/);
    for (const [name, answer] of Object.entries(answers)) {
      expect(answer.status, name).to.equal(200);
      expect(answer.headers['cache-control'], name).to.equal('no-store');
      expect(answer.headers['x-content-type-options'], name).to.equal('nosniff');
      expect(answer.headers['x-accel-buffering'], name).to.equal('no');
    }
  });
});
