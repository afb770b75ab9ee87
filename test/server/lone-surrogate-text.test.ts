import { expect } from 'chai';
import request from 'supertest';
import { buildTestApp, expectErrorEnvelope, type TestApp } from './support/test-app';

/**
 * A lone surrogate is no text: sent on, it reaches the provider as U+FFFD. The JSON bodies are
 * written by hand so that the parsed string holds the lone surrogate itself.
 */
describe('server: synthesis text must be valid Unicode', () => {
  let test: TestApp;
  let apiKey: string;
  beforeEach(async () => {
    test = await buildTestApp();
    ({ apiKey } = await test.register());
  });
  afterEach(() => test.close());

  const post = (path: string, json: string) =>
    request(test.app).post(path).set('X-API-Key', apiKey).set('Content-Type', 'application/json').send(json);
  const ttsBody = (text: string) => `{"model":"espeak-ng","voice":"en-us","text":"${text}"}`;

  for (const path of ['/api/v1/common/tts-sync', '/api/v1/common/tts-stream']) {
    it(`refuses text with a lone surrogate on ${path} with 400 naming text, before any synthesis`, async () => {
      for (const text of ['Hello \\ud800 world', '\\udc00', 'end \\ud83d']) {
        const answer = await post(path, ttsBody(text)).expect(400);
        expect(expectErrorEnvelope(answer.body, 'TTS_ERR_VALIDATION').details[0]).to.deep.equal({ field: 'text', reason: 'invalid_unicode' });
      }
      expect(test.synthesisCalls).to.have.length(0);
    });

    it(`takes a surrogate pair (an emoji) on ${path}`, async () => {
      await post(path, ttsBody('Hello \\ud83d\\ude00')).expect(200);
      expect(test.synthesisCalls.map((call) => call.request.text)).to.deep.equal(['Hello \u{1f600}']);
    });
  }

  it("refuses input with a lone surrogate on /v1/audio/speech in OpenAI's shape with param input", async () => {
    const answer = await post('/v1/audio/speech', '{"model":"tts-1","voice":"alloy","input":"Hello \\udfff"}').expect(400);
    expect(Object.keys(answer.body)).to.deep.equal(['error']);
    expect(answer.body.error).to.include({ type: 'invalid_request_error', param: 'input' });
    expect(test.synthesisCalls).to.have.length(0);
    await post('/v1/audio/speech', '{"model":"tts-1","voice":"alloy","input":"Hello \\ud83d\\ude00"}').expect(200);
    expect(test.synthesisCalls).to.have.length(1);
  });

  it("refuses instructions with a lone surrogate on /v1/audio/speech with param instructions; a pair passes", async () => {
    const body = (instructions: string) => `{"model":"tts-1","voice":"alloy","input":"Hello","instructions":"${instructions}"}`;
    const answer = await post('/v1/audio/speech', body('Speak \\ud800 softly')).expect(400);
    expect(answer.body.error).to.include({ type: 'invalid_request_error', param: 'instructions' });
    expect(test.synthesisCalls).to.have.length(0);
    await post('/v1/audio/speech', body('Speak \\ud83d\\ude00 softly')).expect(200);
    expect(test.synthesisCalls.map((call) => call.request.instructions)).to.deep.equal(['Speak \u{1f600} softly']);
  });
});
