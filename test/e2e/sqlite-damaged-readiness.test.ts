import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { loadConfig } from '../../config';
import { composeGateway, type Gateway } from '../../server/composition-root';
import { damageDatabase } from '../support/damaged-sqlite-file';
import { recordingWinstonLogger } from '../support/recording-winston-logger';

const PASSWORD = 'correct horse battery';

/**
 * Readiness on a SQLite file damaged while the gateway ran: a check that reads no page (`SELECT
 * 1`) passed while every login answered 503 database_damaged. The check reads the first page of
 * each table, so the balancer hears what the requests meet, with SQLite's code (never its text).
 */
describe('e2e: GET /health/ready on a damaged SQLite database', function () {
  this.timeout(30_000);
  let folder: string;
  let gateway: Gateway;
  const logged: Record<string, unknown>[] = [];

  beforeEach(async () => {
    folder = mkdtempSync(join(tmpdir(), 'tts-gateway-sqlite-readiness-'));
    const configPath = join(folder, 'gateway.json');
    writeFileSync(configPath, JSON.stringify({ database: { url: `sqlite:${join(folder, 'gateway.db')}` }, storage: { path: join(folder, 'audio') } }));
    gateway = await composeGateway(await loadConfig({ argv: ['--config', configPath], env: {}, cwd: folder }), { logger: recordingWinstonLogger(logged, 'warn') });
    // Enough accounts that the accounts table spans pages beyond the first.
    for (let index = 0; index < 3; index += 1) {
      await request(gateway.app).post('/api/v1/auth/register').send({ email: `ready${index}@example.com`, password: PASSWORD }).expect(200);
    }
  });

  afterEach(async () => {
    await gateway?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('an undamaged file is ok', async () => {
    const response = await request(gateway.app).get('/health/ready');
    expect(response.body.checks.database).to.deep.equal({ status: 'ok' });
  });

  it('a damaged file fails the check with failed (SQLITE_CORRUPT), as a login meets it', async () => {
    damageDatabase(join(folder, 'gateway.db'));
    const response = await request(gateway.app).get('/health/ready').expect(503);
    expect(response.body.checks.database).to.deep.equal({ status: 'failed', error: 'failed (SQLITE_CORRUPT)' });
    expect(JSON.stringify(response.body)).to.not.match(/malformed|SELECT/);
    const login = await request(gateway.app).post('/api/v1/auth/login').send({ email: 'ready0@example.com', password: PASSWORD }).expect(503);
    expect(login.body.error.details).to.deep.equal([{ reason: 'database_damaged' }]);
  });
});
