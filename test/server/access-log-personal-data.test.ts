import { expect } from 'chai';
import request from 'supertest';
import { maskedPath } from '../../server/middleware/masked-path';
import { buildTestApp, type TestApp } from './support/test-app';

/**
 * An unmatched path is text the client typed: it may hold an email, a name or a key pasted into
 * the wrong place. The access log keeps what tells a wrong route apart (the gateway's words, a
 * misspelt one) and masks each segment that may be personal or secret. A matched route logs its
 * pattern, never its parameters.
 */
describe('server access log: personal data and keys in a path', () => {
  let test: TestApp;
  before(async () => (test = await buildTestApp()));
  after(() => test.close());

  const loggedRoutes = (): string[] => test.logs.filter((entry) => entry.message === 'request').map((entry) => String(entry.route));

  it('an email, a key, an access key id or a name typed into an unmatched path is masked; the rest stays readable', async () => {
    const sent = [
      '/api/v1/users/alice@example.com/x',
      '/api/v1/users/bob%40example.org/x',
      '/api/v1/sk-proj-a1b2c3',
      '/v1/files/AKIAIOSFODNN7EXAMPLE',
      '/api/v1/users/Jos%C3%A9%20M%C3%BCller',
      '/api/v1/common/tts_sync',
    ];
    for (const path of sent) await request(test.app).get(path).expect(404);
    const logged = test.logs.map((entry) => JSON.stringify(entry)).join('\n');
    for (const secret of ['alice', 'bob', 'a1b2c3', 'AKIAIOSFODNN7EXAMPLE', 'Jos', 'ller']) expect(logged, secret).to.not.include(secret);
    expect(loggedRoutes()).to.include.members([
      '(unmatched) /api/v1/users/<masked>/x',
      '(unmatched) /api/v1/<masked>',
      '(unmatched) /v1/files/<masked>',
      '(unmatched) /api/v1/users/<masked>',
      '(unmatched) /api/v1/common/tts_sync',
    ]);
  });

  it('a matched route logs its pattern, not the email in its parameter', async () => {
    const { apiKey } = await test.register();
    await request(test.app).get('/api/v1/tools/voices/carol@example.com').set('X-API-Key', apiKey);
    expect(loggedRoutes()).to.include('/api/v1/tools/voices/:model');
    expect(test.logs.map((entry) => JSON.stringify(entry)).join('\n')).to.not.include('carol');
  });

  it('keeps route words, model names and file names readable', () => {
    expect(maskedPath('/v1/audio/speach')).to.equal('/v1/audio/speach');
    expect(maskedPath('/v1/models/tts-1-hd/voices')).to.equal('/v1/models/tts-1-hd/voices');
    expect(maskedPath('/api/v1/tools/voice/eleven_multilingual')).to.equal('/api/v1/tools/voice/eleven_multilingual');
    expect(maskedPath('/favicon.ico')).to.equal('/favicon.ico');
    expect(maskedPath('/api/v1//common/')).to.equal('/api/v1//common/');
  });

  it('masks what cannot be decoded, and key-like segments however short', () => {
    expect(maskedPath('/api/v1/%E0%A4%A')).to.equal('/api/v1/<masked>');
    expect(maskedPath('/v1/key_9f8e7d/x')).to.equal('/v1/<masked>/x');
    expect(maskedPath('/v1/ttsg_abc/x')).to.equal('/v1/<masked>/x');
    expect(maskedPath('/v1/3f2b8c1e-9d4a-4b7e-8f6a-0c5d2e1b7a93')).to.equal('/v1/<masked>');
  });
});
