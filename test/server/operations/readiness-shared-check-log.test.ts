import { expect } from 'chai';
import request from 'supertest';
import { buildTestApp, type TestApp } from '../support/test-app';

/**
 * Several load balancers polling GET /health/ready during an outage share the pending check of a
 * part; that one failed check is one warning line, not one per poller. Each poller still gets its 503.
 */
describe('server GET /health/ready: one log line per shared failed check', () => {
  let testApp: TestApp;
  afterEach(() => testApp.close());

  const warnings = (): Record<string, unknown>[] =>
    testApp.logs.filter((entry) => entry.message === 'readiness check failed' && entry.check === 'audioStore');

  it('logs a check that several requests waited on once, and a later check that fails again', async () => {
    testApp = await buildTestApp();
    const pollers = 3;
    let audioChecks = 0;
    let failAudioCheck: ((error: Error) => void) | undefined;
    testApp.audioStore.checkWritable = () => {
      audioChecks += 1;
      return new Promise<void>((resolve, reject) => (failAudioCheck = reject));
    };
    // The database check ends at once, so each request starts its own: counting them counts the
    // requests that have joined the pending audio check, which fails once all of them wait on it.
    let arrived = 0;
    testApp.accounts.checkDatabase = async () => {
      arrived += 1;
      if (arrived === pollers) failAudioCheck?.(Object.assign(new Error('disk full'), { code: 'ENOSPC' }));
    };
    const answers = await Promise.all(Array.from({ length: pollers }, () => request(testApp.app).get('/health/ready')));
    for (const answer of answers) {
      expect(answer.status).to.equal(503);
      expect(answer.body.checks.audioStore).to.deep.equal({ status: 'failed', error: 'failed (ENOSPC)' });
    }
    expect(audioChecks, 'audio store checks started').to.equal(1);
    expect(warnings(), 'warning lines for the shared check').to.have.length(1);
    expect(warnings()[0]).to.include({ error: 'failed (ENOSPC)', errorMessage: 'disk full' });

    // A later poll starts a check of its own: its failure is logged again.
    testApp.audioStore.checkWritable = async () => {
      audioChecks += 1;
      throw Object.assign(new Error('disk still full'), { code: 'ENOSPC' });
    };
    await request(testApp.app).get('/health/ready').expect(503);
    expect(audioChecks).to.equal(2);
    expect(warnings(), 'warning lines after a second check').to.have.length(2);
    expect(warnings()[1]).to.include({ errorMessage: 'disk still full' });
  });
});
