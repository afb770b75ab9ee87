import { expect } from 'chai';
import { utimesSync } from 'node:fs';
import request from 'supertest';
import { buildTestApp, expectErrorEnvelope, type TestApp } from './support/test-app';

const BYTES = Buffer.from(Array.from({ length: 1000 }, (_, index) => index % 256));
const binary = (response: request.Response): Buffer => response.body as Buffer;

/** RFC 9110 13.1.1 and 13.1.4 on the download: a GET naming bytes the file no longer has is 412. */
describe('server GET /api/v1/audio/download/:file preconditions (If-Match, If-Unmodified-Since)', () => {
  let testApp: TestApp;
  let fileName: string;
  let etag: string;
  let lastModified: string;

  beforeEach(async () => {
    testApp = await buildTestApp();
    ({ fileName } = await testApp.audioStore.save(BYTES, 'mp3'));
    const first = await download().expect(200);
    etag = first.headers.etag as string;
    lastModified = first.headers['last-modified'] as string;
  });
  afterEach(() => testApp.close());

  const download = (name = fileName) => request(testApp.app).get(`/api/v1/audio/download/${name}`).responseType('blob');
  const expectPreconditionFailed = (response: request.Response, header: string) => {
    expect(response.headers['content-type']).to.match(/^application\/json/);
    expect(response.headers.etag).to.equal(undefined);
    expect(response.headers['cache-control']).to.equal('no-store');
    const body = JSON.parse(binary(response).toString('utf8')) as unknown;
    expect(expectErrorEnvelope(body, 'TTS_ERR_PRECONDITION_FAILED').details[0]).to.include({ field: header });
  };

  it('serves the file when If-Match names its ETag, alone, in a list, or as *', async () => {
    for (const condition of [etag, `"other", ${etag}`, '*']) {
      const response = await download().set('If-Match', condition).expect(200);
      expect(binary(response).equals(BYTES)).to.equal(true);
    }
  });

  it('answers 412 in the envelope when If-Match names no current ETag, a weak one included', async () => {
    for (const condition of ['"other"', `W/${etag}`, '""']) expectPreconditionFailed(await download().set('If-Match', condition).expect(412), 'If-Match');
    const head = await request(testApp.app).head(`/api/v1/audio/download/${fileName}`).set('If-Match', '"other"').expect(412);
    expect(head.headers.etag).to.equal(undefined);
  });

  it('keeps the ETag and Last-Modified of a file renewed by a result-cache hit, so a resumed range still matches', async () => {
    // Saved an hour ago (as the download before it saw it), then another requester's cache hit
    // renews the file's time: the bytes under the name are the same ones.
    const hourAgo = new Date(Date.now() - 3_600_000 + 60_000);
    utimesSync((await testApp.audioStore.locate(fileName))!.path, hourAgo, hourAgo);
    const seen = await download().expect(200);
    expect(await testApp.audioStore.share(fileName)).to.not.equal(undefined);
    const seenTag = seen.headers.etag as string;
    const seenDate = seen.headers['last-modified'] as string;
    const resumed = await download().set('Range', 'bytes=500-').set('If-Match', seenTag).expect(206);
    expect(binary(resumed).equals(BYTES.subarray(500))).to.equal(true);
    await download().set('Range', 'bytes=500-').set('If-Range', seenTag).expect(206);
    await download().set('Range', 'bytes=500-').set('If-Range', seenDate).expect(206);
    await download().set('If-Unmodified-Since', seenDate).expect(200);
    await download().set('If-None-Match', seenTag).expect(304);
  });

  it('checks If-Match before If-None-Match, and answers 404 for an unknown file whatever the condition', async () => {
    await download().set('If-Match', etag).set('If-None-Match', etag).expect(304);
    expectPreconditionFailed(await download().set('If-Match', '"other"').set('If-None-Match', etag).expect(412), 'If-Match');
    const missing = await download('AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA.mp3').set('If-Match', '*').expect(404);
    expectErrorEnvelope(JSON.parse(binary(missing).toString('utf8')), 'TTS_ERR_NOT_FOUND');
  });

  it('answers 412 when the file changed after If-Unmodified-Since; ignores that header beside If-Match or when it is no date', async () => {
    await download().set('If-Unmodified-Since', lastModified).expect(200);
    const before = new Date(Date.parse(lastModified) - 1000).toUTCString();
    expectPreconditionFailed(await download().set('If-Unmodified-Since', before).expect(412), 'If-Unmodified-Since');
    await download().set('If-Unmodified-Since', before).set('If-Match', etag).expect(200);
    await download().set('If-Unmodified-Since', 'yesterday').expect(200);
  });
});
