import { expect } from 'chai';
import request from 'supertest';
import { buildTestApp, type TestApp } from '../support/test-app';

describe('OpenAPI document: HEAD answers', () => {
  let testApp: TestApp;
  before(async () => (testApp = await buildTestApp()));
  after(() => testApp.close());

  it('describes no body for any HEAD answer, errors included, as the gateway sends none', async () => {
    const { apiKey } = await testApp.register();
    const synthesis = await request(testApp.app).post('/api/v1/common/tts-sync').set('X-API-Key', apiKey).send({ model: 'espeak-ng', voice: 'en-us', text: 'Hi' });
    const path = new URL(synthesis.body.data.audio_url).pathname;
    for (const [condition, value] of [['If-Match', '"stale"'], ['Range', 'bytes=9000-9999']]) {
      const answer = await request(testApp.app).head(path).set(condition, value).buffer(true);
      expect(answer.status).to.be.oneOf([412, 416]);
      expect(answer.text ?? '', condition).to.equal('');
    }
    const document = (await request(testApp.app).get('/openapi.json')).body as { paths: Record<string, Record<string, { responses: Record<string, { content?: unknown }> }>> };
    const heads = Object.entries(document.paths).filter(([, operations]) => operations.head !== undefined);
    expect(heads).to.not.have.length(0);
    for (const [name, operations] of heads) {
      for (const [status, response] of Object.entries(operations.head.responses)) expect(response.content, `HEAD ${name} ${status}`).to.equal(undefined);
    }
  });
});
