import { expect } from 'chai';
import request from 'supertest';
import { buildTestApp, type TestApp } from '../support/test-app';

/**
 * A failed readiness check is logged for the operator with its message, and a library's message
 * may quote what it was given: a bucket URL with its access key, a token. It is scrubbed as every
 * other error message the gateway logs.
 */
describe('server GET /health/ready: the log line of a failed check', () => {
  let testApp: TestApp;
  afterEach(() => testApp.close());

  it('names the check and the failure without a key-like string the message quoted', async () => {
    testApp = await buildTestApp();
    testApp.audioStore.checkWritable = async () => {
      throw new Error('PUT https://bucket.example/probe?X-Amz-Credential=AKIA9QZ7EXAMPLE0KEY1234567 failed: token_Secret123456 refused');
    };
    await request(testApp.app).get('/health/ready').expect(503);
    const line = testApp.logs.find((entry) => entry.message === 'readiness check failed' && entry.check === 'audioStore');
    expect(line, 'the readiness line').to.not.equal(undefined);
    expect(String(line?.errorMessage)).to.include('refused');
    expect(JSON.stringify(line)).to.not.include('AKIA9QZ7EXAMPLE0KEY1234567').and.not.include('Secret123456');
  });
});
