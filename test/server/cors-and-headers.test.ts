import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import OpenAI from 'openai';
import request from 'supertest';
import { EXPOSED_HEADERS } from '../../server/middleware/cors-policy';
import { projectRoot } from '../support/paths';
import { buildTestApp, type TestApp, type TestAppOptions } from './support/test-app';

function sourceFiles(directory: string): string[] {
  return readdirSync(directory).flatMap((entry) => {
    const path = join(directory, entry);
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [path] : [];
  });
}

describe('server CORS and security headers', () => {
  let testApp: TestApp;
  const start = async (options: TestAppOptions = {}) => {
    testApp = await buildTestApp(options);
  };
  afterEach(() => testApp.close());

  it('sends no CORS header by default, to preflights or requests', async () => {
    await start();
    const preflight = await request(testApp.app)
      .options('/api/v1/tools/models')
      .set('Origin', 'https://app.example.com')
      .set('Access-Control-Request-Method', 'GET');
    expect(preflight.headers).to.not.have.property('access-control-allow-origin');
    const answer = await request(testApp.app).get('/health/live').set('Origin', 'https://app.example.com').expect(200);
    expect(answer.headers).to.not.have.property('access-control-allow-origin');
  });

  it('answers a preflight from a listed origin with the headers a key-carrying client needs', async () => {
    await start({ corsOrigins: ['https://app.example.com', 'http://localhost:3000'] });
    const preflight = await request(testApp.app)
      .options('/api/v1/common/tts-sync')
      .set('Origin', 'https://app.example.com')
      .set('Access-Control-Request-Method', 'POST')
      .set('Access-Control-Request-Headers', 'x-api-key, content-type')
      .expect(204);
    expect(preflight.headers['access-control-allow-origin']).to.equal('https://app.example.com');
    expect(preflight.headers.vary).to.match(/Origin/);
    const allowed = String(preflight.headers['access-control-allow-headers']).split(',');
    expect(allowed).to.include.members(['X-API-Key', 'Authorization', 'Content-Type']);
    expect(String(preflight.headers['access-control-allow-methods'])).to.include('POST');
    expect(preflight.headers).to.not.have.property('access-control-allow-credentials');
  });

  it('lets a browser app call /v1 through the official OpenAI SDK: every header the SDK sends passes the preflight', async () => {
    await start({ corsOrigins: ['https://app.example.com'] });
    // The headers the SDK really sends, taken from a call it makes.
    let sent: Headers | undefined;
    const client = new OpenAI({
      apiKey: 'key',
      baseURL: 'https://gateway.example/v1',
      dangerouslyAllowBrowser: true,
      maxRetries: 0,
      fetch: async (_url, init) => {
        sent = new Headers(init?.headers);
        return new Response('audio', { status: 200, headers: { 'content-type': 'audio/mpeg' } });
      },
    });
    await client.audio.speech.create({ model: 'tts-1', voice: 'alloy', input: 'Hi' });
    // What a browser asks about: all but the CORS-safelisted request headers.
    const asked = [...(sent?.keys() ?? [])].filter((name) => name !== 'accept');
    expect(asked).to.include.members(['authorization', 'content-type', 'x-stainless-lang']);
    const preflight = await request(testApp.app)
      .options('/v1/audio/speech')
      .set('Origin', 'https://app.example.com')
      .set('Access-Control-Request-Method', 'POST')
      .set('Access-Control-Request-Headers', asked.join(', '))
      .expect(204);
    const allowed = String(preflight.headers['access-control-allow-headers']).toLowerCase().split(',');
    expect(asked.filter((name) => !allowed.includes(name))).to.deep.equal([]);
  });

  it('exposes the X-TTS-* and X-Request-Id headers to a listed origin, and nothing to another', async () => {
    await start({ corsOrigins: ['https://app.example.com'] });
    const { apiKey } = await testApp.register();
    const answer = await request(testApp.app)
      .post('/api/v1/common/tts-sync')
      .set('Origin', 'https://app.example.com')
      .set('X-API-Key', apiKey)
      .send({ model: 'espeak-ng', voice: 'en-us', text: 'Hi' })
      .expect(200);
    expect(answer.headers['access-control-allow-origin']).to.equal('https://app.example.com');
    const exposed = String(answer.headers['access-control-expose-headers']).split(',');
    expect(exposed).to.include.members(['X-Request-Id', 'X-TTS-Applied', 'Retry-After']);
    const foreign = await request(testApp.app).get('/health/live').set('Origin', 'https://evil.example').expect(200);
    expect(foreign.headers).to.not.have.property('access-control-allow-origin');
  });

  it('allows any origin with "*"', async () => {
    await start({ corsOrigins: '*' });
    const answer = await request(testApp.app).get('/health/live').set('Origin', 'https://anyone.example').expect(200);
    expect(answer.headers['access-control-allow-origin']).to.equal('*');
  });

  it('lists every X-TTS-* header the server sends among the exposed ones', () => {
    const sent = new Set<string>();
    for (const file of sourceFiles(join(projectRoot, 'server'))) {
      for (const [name] of readFileSync(file, 'utf8').matchAll(/X-TTS-[A-Za-z]+(?:-[A-Za-z]+)*/g)) sent.add(name);
    }
    expect(sent.size).to.be.greaterThan(0);
    for (const name of sent) expect(EXPOSED_HEADERS, name).to.include(name);
  });

  it("sends helmet's protections and a same-origin Content-Security-Policy on every answer", async () => {
    await start();
    for (const path of ['/health/live', '/api/v1/tools/models', '/docs/', '/nowhere']) {
      const answer = await request(testApp.app).get(path);
      expect(answer.headers, path).to.not.have.property('x-powered-by');
      expect(answer.headers['x-content-type-options'], path).to.equal('nosniff');
      expect(answer.headers['x-frame-options'], path).to.equal('SAMEORIGIN');
      expect(answer.headers['referrer-policy'], path).to.equal('no-referrer');
      const policy = String(answer.headers['content-security-policy']);
      for (const directive of ["default-src 'self'", "script-src 'self'", "style-src 'self'", "media-src 'self' blob:", "object-src 'none'", "connect-src 'self'"]) {
        expect(policy, `${path}: ${directive}`).to.include(directive);
      }
      expect(policy).to.not.include('unsafe-inline');
      expect(policy).to.not.include('https:');
      expect(policy).to.not.include('upgrade-insecure-requests');
    }
  });

  it('lets pages on other origins play a download link (Cross-Origin-Resource-Policy)', async () => {
    await start();
    const { apiKey } = await testApp.register();
    const synthesis = await request(testApp.app).post('/api/v1/common/tts-sync').set('X-API-Key', apiKey).send({ model: 'espeak-ng', voice: 'en-us', text: 'Hi' });
    const download = await request(testApp.app).get(new URL(synthesis.body.data.audio_url).pathname).expect(200);
    expect(download.headers['cross-origin-resource-policy']).to.equal('cross-origin');
    const json = await request(testApp.app).get('/health/live').expect(200);
    expect(json.headers['cross-origin-resource-policy']).to.equal('same-origin');
  });

  it('lets a script on a listed origin resume a download: ETag readable, If-Range allowed by the preflight', async () => {
    await start({ corsOrigins: ['https://app.example.com'] });
    const { apiKey } = await testApp.register();
    const synthesis = await request(testApp.app).post('/api/v1/common/tts-sync').set('X-API-Key', apiKey).send({ model: 'espeak-ng', voice: 'en-us', text: 'Hi' });
    const path = new URL(synthesis.body.data.audio_url).pathname;
    const preflight = await request(testApp.app)
      .options(path)
      .set('Origin', 'https://app.example.com')
      .set('Access-Control-Request-Method', 'GET')
      .set('Access-Control-Request-Headers', 'range, if-range, if-none-match, if-modified-since, if-match, if-unmodified-since')
      .expect(204);
    const allowed = String(preflight.headers['access-control-allow-headers']).toLowerCase().split(',');
    expect(allowed).to.include.members(['range', 'if-range', 'if-none-match', 'if-modified-since', 'if-match', 'if-unmodified-since']);
    const whole = await request(testApp.app).get(path).set('Origin', 'https://app.example.com').expect(200);
    const exposed = String(whole.headers['access-control-expose-headers']).split(',');
    expect(exposed).to.include('ETag');
    const rest = await request(testApp.app).get(path).set('Origin', 'https://app.example.com').set('Range', 'bytes=10-').set('If-Range', whole.headers.etag).expect(206);
    expect(rest.headers['content-range']).to.match(/^bytes 10-/);
  });
});
