import { expect } from 'chai';
import request from 'supertest';
import { buildTestApp, type TestApp } from '../support/test-app';

/**
 * A check that hangs (an audio folder on a network mount that stopped answering, a database
 * that does not answer) holds what it started: on a folder, a thread of libuv's pool of four,
 * which DNS lookups and password hashing share. Each readiness request must not start one more.
 */
describe('server GET /health/ready while a check hangs', function () {
  this.timeout(20_000);
  let testApp: TestApp;
  afterEach(() => testApp.close());

  it('answers 503 (TIMEOUT) each time but waits on the hung check instead of starting another, and checks afresh once it ends', async () => {
    testApp = await buildTestApp();
    let started = 0;
    let release: (() => void) | undefined;
    const hung = new Promise<void>((resolve) => (release = resolve));
    let hanging = true;
    testApp.audioStore.checkWritable = () => {
      started += 1;
      return hanging ? hung : Promise.resolve();
    };
    const probes = await Promise.all([1, 2, 3].map(() => request(testApp.app).get('/health/ready')));
    probes.push(await request(testApp.app).get('/health/ready'));
    for (const probe of probes) {
      expect(probe.status).to.equal(503);
      expect(probe.body.checks.audioStore).to.deep.equal({ status: 'failed', error: 'failed (TIMEOUT)' });
    }
    expect(started, 'audio store checks started').to.equal(1);
    // The hung check ends (the mount answers again): the next readiness request checks anew.
    hanging = false;
    release?.();
    await new Promise((resolve) => setImmediate(resolve));
    const ready = await request(testApp.app).get('/health/ready').expect(200);
    expect(ready.body.checks.audioStore).to.deep.equal({ status: 'ok' });
    expect(started).to.equal(2);
  });
});
