import { expect } from 'chai';
import { utimesSync } from 'node:fs';
import request from 'supertest';
import { buildTestApp, expectErrorEnvelope, type TestApp, type TestAppOptions } from './support/test-app';

const BYTES = Buffer.from(Array.from({ length: 1000 }, (_, index) => index % 256));
const binary = (response: request.Response): Buffer => response.body as Buffer;

describe('server GET /api/v1/audio/download/:file', () => {
  let testApp: TestApp;
  let fileName: string;

  async function start(options: TestAppOptions = {}): Promise<void> {
    testApp = await buildTestApp(options);
    ({ fileName } = await testApp.audioStore.save(BYTES, 'mp3'));
  }
  afterEach(() => testApp.close());

  const download = (name = fileName) => request(testApp.app).get(`/api/v1/audio/download/${name}`).responseType('blob');

  describe('by default (the name is the capability)', () => {
    beforeEach(() => start());

    it('serves the file with its type, length, strong ETag and private caching, without a key', async () => {
      const response = await download().expect(200);
      expect(binary(response).equals(BYTES)).to.equal(true);
      expect(response.headers['content-type']).to.equal('audio/mpeg');
      expect(response.headers['content-length']).to.equal('1000');
      expect(response.headers.etag).to.match(/^"[A-Za-z0-9_-]{27}"$/);
      expect(response.headers['cache-control']).to.match(/^private, max-age=(3599|3600)$/);
      expect(response.headers['accept-ranges']).to.equal('bytes');
      expect(response.headers['last-modified']).to.be.a('string');
      expect(response.headers['x-request-id']).to.be.a('string');
    });

    it('answers HEAD with the headers and no body', async () => {
      const response = await request(testApp.app).head(`/api/v1/audio/download/${fileName}`).expect(200);
      expect(response.headers['content-length']).to.equal('1000');
      expect(response.headers['content-type']).to.equal('audio/mpeg');
      expect(response.text ?? '').to.equal('');
    });

    it('serves a byte range with 206 and Content-Range', async () => {
      const response = await download().set('Range', 'bytes=100-199').expect(206);
      expect(response.headers['content-range']).to.equal('bytes 100-199/1000');
      expect(response.headers['content-length']).to.equal('100');
      expect(binary(response).equals(BYTES.subarray(100, 200))).to.equal(true);
      const suffix = await download().set('Range', 'bytes=-10').expect(206);
      expect(binary(suffix).equals(BYTES.subarray(990))).to.equal(true);
    });

    it('serves a suffix range longer than the file as the whole file (RFC 9110), and ignores an unknown unit', async () => {
      const longer = await download().set('Range', 'bytes=-5000').expect(206);
      expect(longer.headers['content-range']).to.equal('bytes 0-999/1000');
      expect(binary(longer).equals(BYTES)).to.equal(true);
      const beside = await download().set('Range', 'bytes=5000-6000, -1001').expect(206);
      expect(beside.headers['content-range']).to.equal('bytes 0-999/1000');
      // A zero-length suffix stays unsatisfiable; a unit other than bytes is ignored.
      expect((await download().set('Range', 'bytes=-0').expect(416)).headers['content-range']).to.equal('bytes */1000');
      const items = await download().set('Range', 'items=5000-6000').expect(200);
      expect(binary(items).equals(BYTES)).to.equal(true);
    });

    it('serves the whole file when one of several ranges is a suffix longer than the file, never only the others', async () => {
      for (const header of ['bytes=0-99, -5000', 'bytes=-5000, -10', 'bytes=-5000,900-']) {
        const response = await download().set('Range', header);
        expect(response.status, header).to.be.oneOf([200, 206]);
        expect(binary(response).equals(BYTES), header).to.equal(true);
      }
    });

    it('answers 416 in the envelope for an unsatisfiable range, then keeps serving', async () => {
      const response = await request(testApp.app).get(`/api/v1/audio/download/${fileName}`).set('Range', 'bytes=5000-6000').expect(416);
      expect(response.headers['content-range']).to.equal('bytes */1000');
      expect(response.headers['content-type']).to.match(/^application\/json/);
      expect(response.headers.etag).to.equal(undefined);
      expectErrorEnvelope(response.body, 'TTS_ERR_RANGE_NOT_SATISFIABLE');
      await download().expect(200);
    });

    it('applies If-Range with a date only when it is exactly the Last-Modified date', async () => {
      const lastModified = (await download().expect(200)).headers['last-modified'] as string;
      const exact = await download().set('Range', 'bytes=0-9').set('If-Range', lastModified).expect(206);
      expect(exact.headers['content-range']).to.equal('bytes 0-9/1000');
      const later = new Date(Date.parse(lastModified) + 86_400_000).toUTCString();
      const whole = await download().set('Range', 'bytes=0-9').set('If-Range', later).expect(200);
      expect(binary(whole).equals(BYTES)).to.equal(true);
    });

    it('answers 304 for a matching If-None-Match and 200 for a stale one', async () => {
      const first = await download().expect(200);
      const etag = first.headers.etag as string;
      const again = await request(testApp.app).get(`/api/v1/audio/download/${fileName}`).set('If-None-Match', etag).expect(304);
      expect(again.headers.etag).to.equal(etag);
      await download().set('If-None-Match', '"something-else"').expect(200);
    });

    it('keeps the ETag when a result-cache hit renews the file (its bytes never change under its name)', async () => {
      const before = (await download().expect(200)).headers.etag;
      const moment = new Date(Date.now() - 60_000);
      utimesSync((await testApp.audioStore.locate(fileName))!.path, moment, moment);
      const after = (await download().expect(200)).headers.etag;
      expect(after).to.equal(before);
      const other = await testApp.audioStore.save(BYTES, 'mp3');
      expect((await download(other.fileName).expect(200)).headers.etag).to.not.equal(before);
    });

    it('serves raw PCM with its rate and channels', async () => {
      const pcm = await testApp.audioStore.save(Buffer.alloc(48), 'pcm', { sampleRate: 22_050 });
      const response = await download(pcm.fileName).expect(200);
      expect(response.headers['content-type']).to.equal('audio/pcm;rate=22050;channels=1');
    });

    it('answers 404 in the envelope for an unknown file', async () => {
      const response = await request(testApp.app).get(`/api/v1/audio/download/${'A'.repeat(32)}.mp3`).expect(404);
      expectErrorEnvelope(response.body, 'TTS_ERR_NOT_FOUND');
    });

    for (const attempt of ['..%2f..%2fetc%2fpasswd', '..%2F..%2F..%2Fetc%2Fpasswd', '%2e%2e%2fpackage.json', `${'A'.repeat(32)}.mp3%00`, '..', '.%2e']) {
      it(`answers 404 in the envelope for the traversal attempt ${attempt}`, async () => {
        const response = await request(testApp.app).get(`/api/v1/audio/download/${attempt}`).expect(404);
        expectErrorEnvelope(response.body, 'TTS_ERR_NOT_FOUND');
        expect(response.text).to.not.include('root:').and.not.include('tts-gateway');
        await download().expect(200);
      });
    }

    it('answers 400 in the envelope for a malformed percent escape', async () => {
      const response = await request(testApp.app).get('/api/v1/audio/download/%E0%A4%A').expect(400);
      expectErrorEnvelope(response.body, 'TTS_ERR_VALIDATION');
      await download().expect(200);
    });

    it('answers 404 for a file past its retention', async () => {
      const old = new Date(Date.now() - 2 * 3_600_000);
      utimesSync((await testApp.audioStore.locate(fileName))!.path, old, old);
      expectErrorEnvelope((await request(testApp.app).get(`/api/v1/audio/download/${fileName}`).expect(404)).body, 'TTS_ERR_NOT_FOUND');
    });
  });

  describe('with downloadRequiresKey', () => {
    beforeEach(() => start({ downloadRequiresKey: true }));

    it('needs X-API-Key', async () => {
      expectErrorEnvelope((await request(testApp.app).get(`/api/v1/audio/download/${fileName}`).expect(401)).body, 'TTS_ERR_UNAUTHORIZED');
      const { apiKey } = await testApp.register();
      const response = await download().set('X-API-Key', apiKey).expect(200);
      expect(binary(response).equals(BYTES)).to.equal(true);
    });
  });
});
