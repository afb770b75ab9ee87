import { S3Client } from '@aws-sdk/client-s3';
import { expect } from 'chai';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { S3AudioStore } from '../../../core';
import { S3Server } from '../../support/servers/s3-server';
import { buildTestApp, type TestApp } from '../support/test-app';

const BUCKET = 'tts-audio-readiness-bucket';
const MISSING_BUCKET = 'tts-audio-readiness-missing';
const WRONG_SECRET = 'wrong-secret-Zq81mVt0pLx';

/**
 * The AWS SDK's errors carry S3's error code as `name` and the status as `$metadata`, not Node's
 * `code`: readiness names them (the code and the status say what the operator must fix) as it names
 * a database's SQLITE_* code, and keeps the bucket and credentials out. A real S3-compatible server (s3rver).
 */
describe('server GET /health/ready: an S3 audio store that fails', function () {
  this.timeout(20_000);
  let server: S3Server;
  let testApp: TestApp;
  let client: S3Client;
  before(async () => {
    server = await S3Server.start([BUCKET]);
  });
  after(() => server.stop());
  afterEach(async () => {
    client.destroy();
    await testApp.close();
  });

  async function readinessOn(s3Client: S3Client, bucket: string) {
    client = s3Client;
    testApp = await buildTestApp();
    const store = new S3AudioStore({ client, bucket, retentionMs: 3_600_000 });
    testApp.audioStore.checkWritable = () => store.checkWritable();
    return request(testApp.app).get('/health/ready').expect(503);
  }

  const failureLine = () => testApp.logs.find((entry) => entry.message === 'readiness check failed' && entry.check === 'audioStore');

  it('a bucket that does not exist: failed (NoSuchBucket, HTTP 404), in the answer and the log', async () => {
    const response = await readinessOn(server.client(), MISSING_BUCKET);
    expect(response.body.checks.audioStore).to.deep.equal({ status: 'failed', error: 'failed (NoSuchBucket, HTTP 404)' });
    expect(failureLine()).to.include({ error: 'failed (NoSuchBucket, HTTP 404)' });
    expect(JSON.stringify(response.body)).to.not.include(MISSING_BUCKET);
  });

  it('an access key S3 does not know: failed (InvalidAccessKeyId, HTTP 403), never the secret', async () => {
    const wrongKeys = new S3Client({ endpoint: server.endpoint, region: 'us-east-1', forcePathStyle: true, credentials: { accessKeyId: 'AKIAWRONGEXAMPLE1234', secretAccessKey: WRONG_SECRET } });
    const response = await readinessOn(wrongKeys, BUCKET);
    expect(response.body.checks.audioStore).to.deep.equal({ status: 'failed', error: 'failed (InvalidAccessKeyId, HTTP 403)' });
    expect(failureLine()).to.include({ error: 'failed (InvalidAccessKeyId, HTTP 403)' });
    expect(JSON.stringify(response.body) + JSON.stringify(testApp.logs)).to.not.include(WRONG_SECRET);
  });

  it('an answer without a body (a proxy in front of S3): failed (HTTP 403), the status alone', async () => {
    // The SDK names such an error after its status ("403"), which is no S3 code.
    const proxy = createServer((incoming, answer) => incoming.resume().on('end', () => answer.writeHead(403).end()));
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    try {
      const endpoint = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
      const response = await readinessOn(new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } }), BUCKET);
      expect(response.body.checks.audioStore).to.deep.equal({ status: 'failed', error: 'failed (HTTP 403)' });
    } finally {
      proxy.closeAllConnections();
      await new Promise((resolve) => proxy.close(resolve));
    }
  });
});
