import Database from 'better-sqlite3';
import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request, { type Response } from 'supertest';
import { loadConfig } from '../../config';
import { composeGateway, type Gateway } from '../../server/composition-root';
import { expectErrorEnvelope } from '../server/support/test-app';
import { recordingWinstonLogger } from '../support/recording-winston-logger';

/** `database.statementTimeout`, SQLite's busy timeout here: short, so that a wait past it shows at once. */
const LIMIT = '300ms';
const PASSWORD = 'correct horse battery';

/** The answer a statement that waited out the lock gives: 503 in the spec's envelope, Retry-After, nothing of the SQL or the stack. */
function expectDatabaseLocked(response: Response): void {
  expect(response.status).to.equal(503);
  expect(response.headers['retry-after']).to.equal('1');
  const error = expectErrorEnvelope(response.body, 'TTS_ERR_UNAVAILABLE');
  expect(error.details).to.deep.equal([{ reason: 'database_timeout' }]);
  expect(response.body.message).to.equal('The account database is unavailable: another connection held its lock for more than 300 ms');
  expect(JSON.stringify(response.body)).to.not.match(/SELECT|INSERT|UPDATE|SQLITE|database is locked|\.js:\d+|at [A-Za-z]+ \(/);
}

/**
 * The gateway on a SQLite file that another process writes to (the CLI while the gateway serves,
 * a sqlite3 shell in a transaction): a write that waits out `database.statementTimeout` answers
 * 503 with Retry-After instead of a 500, reads go on (WAL), and it writes again once the lock is gone.
 */
describe('e2e: the gateway on a SQLite database locked by another connection', function () {
  this.timeout(30_000);
  let folder: string;
  let databasePath: string;
  let gateway: Gateway;
  let apiKey: string;
  let holder: Database.Database;
  const logged: Record<string, unknown>[] = [];

  before(async () => {
    folder = mkdtempSync(join(tmpdir(), 'tts-gateway-sqlite-locked-'));
    databasePath = join(folder, 'gateway.db');
    const logger = recordingWinstonLogger(logged, 'warn');
    const configPath = join(folder, 'gateway.json');
    writeFileSync(configPath, JSON.stringify({ database: { url: `sqlite:${databasePath}`, statementTimeout: LIMIT }, storage: { path: join(folder, 'audio') } }));
    gateway = await composeGateway(await loadConfig({ argv: ['--config', configPath], env: {}, cwd: folder }), { logger });
    const registered = await request(gateway.app).post('/api/v1/auth/register').send({ email: 'locked@example.com', password: PASSWORD }).expect(200);
    apiKey = registered.body.data.apiKey as string;
    holder = new Database(databasePath);
  });

  afterEach(() => {
    if (holder.inTransaction) holder.exec('ROLLBACK');
  });

  after(async () => {
    holder?.close();
    await gateway?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  const login = () => request(gateway.app).post('/api/v1/auth/login').send({ email: 'locked@example.com', password: PASSWORD });

  it('login and key creation, whose new key waits for the write lock another connection holds, answer 503 with Retry-After; once the lock is gone they succeed', async () => {
    holder.exec('BEGIN IMMEDIATE');
    expectDatabaseLocked(await login());
    expectDatabaseLocked(await request(gateway.app).post('/api/v1/auth/keys').set('X-API-Key', apiKey).send({ name: 'ci' }));
    expectDatabaseLocked(await request(gateway.app).post('/api/v1/auth/register').send({ email: 'second@example.com', password: PASSWORD }));
    const failures = logged.filter((entry) => entry.message === 'request failed');
    expect(failures.map((entry) => entry.databaseCode)).to.deep.equal(['SQLITE_BUSY', 'SQLITE_BUSY', 'SQLITE_BUSY']);
    expect(JSON.stringify(failures)).to.not.match(/INSERT|api_keys/);
    holder.exec('ROLLBACK');
    expect((await login()).status).to.equal(200);
    expect((await request(gateway.app).post('/api/v1/auth/keys').set('X-API-Key', apiKey).send({ name: 'ci' })).status).to.equal(200);
  });

  it('reads go on under the lock (WAL): the key list answers, and an unknown key is refused with 401, not a 503', async () => {
    holder.exec('BEGIN EXCLUSIVE');
    expect((await request(gateway.app).get('/api/v1/auth/keys').set('X-API-Key', apiKey)).status).to.equal(200);
    expect((await request(gateway.app).get('/api/v1/auth/keys').set('X-API-Key', `ttsg_${'x'.repeat(43)}`)).status).to.equal(401);
  });
});
