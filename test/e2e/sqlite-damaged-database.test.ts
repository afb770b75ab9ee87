import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { loadConfig } from '../../config';
import { composeGateway, type Gateway } from '../../server/composition-root';
import { expectErrorEnvelope } from '../server/support/test-app';
import { damageDatabase } from '../support/damaged-sqlite-file';
import { recordingWinstonLogger } from '../support/recording-winston-logger';

const PASSWORD = 'correct horse battery';

/**
 * The gateway on a SQLite file that got damaged while it ran (SQLITE_CORRUPT): an outage for the
 * operator to repair from a backup, answered 503 TTS_ERR_UNAVAILABLE like a full disk, not a 500,
 * with the condition named in the log and nothing of SQLite's text in the answer.
 */
describe('e2e: the gateway on a damaged SQLite database', function () {
  this.timeout(30_000);
  let folder: string;
  let gateway: Gateway;
  const logged: Record<string, unknown>[] = [];

  before(async () => {
    folder = mkdtempSync(join(tmpdir(), 'tts-gateway-sqlite-damaged-'));
    const configPath = join(folder, 'gateway.json');
    writeFileSync(configPath, JSON.stringify({ database: { url: `sqlite:${join(folder, 'gateway.db')}` }, storage: { path: join(folder, 'audio') } }));
    gateway = await composeGateway(await loadConfig({ argv: ['--config', configPath], env: {}, cwd: folder }), { logger: recordingWinstonLogger(logged, 'warn') });
  });

  after(async () => {
    await gateway?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('a login reading a damaged page answers 503 database_damaged with Retry-After; the log names SQLITE_CORRUPT', async () => {
    // Enough accounts that the accounts table spans pages beyond the first.
    for (let index = 0; index < 3; index += 1) {
      await request(gateway.app).post('/api/v1/auth/register').send({ email: `damaged${index}@example.com`, password: PASSWORD }).expect(200);
    }
    damageDatabase(join(folder, 'gateway.db'));
    const response = await request(gateway.app).post('/api/v1/auth/login').send({ email: 'damaged0@example.com', password: PASSWORD });
    expect(response.status).to.equal(503);
    expect(response.headers['retry-after']).to.equal('1');
    const error = expectErrorEnvelope(response.body, 'TTS_ERR_UNAVAILABLE');
    expect(error.details).to.deep.equal([{ reason: 'database_damaged' }]);
    expect(response.body.message).to.equal('The account database is unavailable: its file is damaged');
    expect(JSON.stringify(response.body)).to.not.match(/SELECT|SQLITE|malformed|\.js:\d+|at [A-Za-z]+ \(/);
    const failure = logged.find((entry) => entry.message === 'request failed');
    expect(failure).to.include({ databaseCode: 'SQLITE_CORRUPT', errorMessage: 'The account database is unavailable: its file is damaged' });
  });
});
