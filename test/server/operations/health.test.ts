import { writeFileSync } from 'node:fs';
import { expect } from 'chai';
import request from 'supertest';
import { ProviderHealth } from '../../../core';
import { buildTestApp, type TestApp, type TestAppOptions } from '../support/test-app';

describe('server GET /health/live and /health/ready', () => {
  let testApp: TestApp;
  const start = async (options: TestAppOptions = {}) => {
    testApp = await buildTestApp(options);
  };
  afterEach(() => testApp.close());

  it('live answers 200 while the process serves, with no key and no cache', async () => {
    await start();
    const response = await request(testApp.app).get('/health/live').expect(200);
    expect(response.body).to.deep.equal({ status: 'ok' });
    expect(response.headers['cache-control']).to.equal('no-store');
  });

  it('ready answers 200 when the database, the audio folder and a provider are usable', async () => {
    await start();
    const response = await request(testApp.app).get('/health/ready').expect(200);
    expect(response.body).to.deep.equal({
      status: 'ready',
      checks: { database: { status: 'ok' }, audioStore: { status: 'ok' }, startup: { status: 'ok' }, shutdown: { status: 'ok' } },
      providers: [{ id: 'espeak', status: 'ready', models: 1 }],
    });
  });

  it('ready answers 503 naming the database when it cannot be read', async () => {
    await start();
    await testApp.store.close();
    const response = await request(testApp.app).get('/health/ready').expect(503);
    expect(response.body.status).to.equal('not ready');
    expect(response.body.checks.database.status).to.equal('failed');
    expect(response.body.checks.audioStore).to.deep.equal({ status: 'ok' });
    expect(testApp.logs.some((entry) => entry.message === 'readiness check failed' && entry.check === 'database')).to.equal(true);
  });

  it('ready answers 503 with the error code, not the path, when the audio folder cannot take a file', async () => {
    await start();
    // The store's folder path is taken by a plain file: nothing can be written under it.
    writeFileSync(testApp.config.storage.path, 'not a folder');
    const response = await request(testApp.app).get('/health/ready').expect(503);
    expect(response.body.checks.audioStore.status).to.equal('failed');
    expect(response.body.checks.audioStore.error).to.match(/^failed \((EEXIST|ENOTDIR)\)$/);
    expect(JSON.stringify(response.body)).to.not.include('/tmp');
  });

  it('keeps the gateway ready with one provider down, reporting its last error', async () => {
    const health = new ProviderHealth(() => 1_700_000_000_000);
    health.add('espeak', 1);
    health.add('openai', 0, 'GET /v1/models answered 401 (invalid key ****)');
    await start({ providers: () => health.list() });
    const response = await request(testApp.app).get('/health/ready').expect(200);
    expect(response.body.providers).to.deep.equal([
      { id: 'espeak', status: 'ready', models: 1 },
      { id: 'openai', status: 'unavailable', models: 0, lastError: 'GET /v1/models answered 401 (invalid key ****)', lastErrorAt: 1_700_000_000_000 },
    ]);
  });

  it('answers 503 when no provider is ready', async () => {
    await start({ providers: () => [{ id: 'openai', status: 'unavailable', models: 0, lastError: 'unreachable' }] });
    expect((await request(testApp.app).get('/health/ready').expect(503)).body.status).to.equal('not ready');
  });

  it('a 503 carries Retry-After (as every 503 of the gateway does), a 200 none', async () => {
    let warmingUp = true;
    await start({ warmingUp: () => warmingUp });
    const notReady = await request(testApp.app).get('/health/ready').expect(503);
    expect(notReady.headers['retry-after']).to.equal('5');
    warmingUp = false;
    const ready = await request(testApp.app).get('/health/ready').expect(200);
    expect(ready.headers).to.not.have.property('retry-after');
  });

  it('answers 503 while the providers warm up, then 200, while liveness stays 200 throughout', async () => {
    let warmingUp = true;
    await start({ warmingUp: () => warmingUp });
    const response = await request(testApp.app).get('/health/ready').expect(503);
    expect(response.body.checks.startup).to.deep.equal({ status: 'failed', error: 'warming up' });
    await request(testApp.app).get('/health/live').expect(200);
    warmingUp = false;
    expect((await request(testApp.app).get('/health/ready').expect(200)).body.checks.startup).to.deep.equal({ status: 'ok' });
  });

  it('answers 503 once a stop began, while liveness stays 200', async () => {
    let stopping = false;
    await start({ stopping: () => stopping });
    await request(testApp.app).get('/health/ready').expect(200);
    stopping = true;
    const response = await request(testApp.app).get('/health/ready').expect(503);
    expect(response.body.checks.shutdown).to.deep.equal({ status: 'failed', error: 'stopping' });
    await request(testApp.app).get('/health/live').expect(200);
  });
});
