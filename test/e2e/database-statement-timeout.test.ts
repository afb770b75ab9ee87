import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request, { type Response } from 'supertest';
import { loadConfig } from '../../config';
import { composeGateway, type Gateway } from '../../server/composition-root';
import { expectErrorEnvelope } from '../server/support/test-app';
import { sharedPostgres } from '../support/servers/shared-servers';
import { holdPostgresLocks } from '../support/postgres-lock-holder';
import { recordingWinstonLogger } from '../support/recording-winston-logger';

/** The limit this gateway is configured with: short, so that a wait past it shows at once. */
const LIMIT = '300ms';
/** A request slower than this would have waited for the lock rather than for the limit. */
const BOUND_MS = 4_000;
const PASSWORD = 'correct horse battery';

/** Sends a request and answers it, or a note that it went on past BOUND_MS. */
async function answerWithin(pending: PromiseLike<Response>): Promise<{ response?: Response; elapsedMs: number }> {
  const started = Date.now();
  const response = await Promise.race([Promise.resolve(pending), new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), BOUND_MS).unref())]);
  return { response, elapsedMs: Date.now() - started };
}

/** The answer a timed-out statement gives: 503 in the spec's envelope, Retry-After, nothing of the SQL or the stack. */
function expectDatabaseUnavailable(answer: { response?: Response; elapsedMs: number }): void {
  expect(answer.response, `an answer within ${BOUND_MS} ms`).to.not.equal(undefined);
  const { response } = answer;
  expect(response!.status).to.equal(503);
  expect(response!.headers['retry-after']).to.equal('1');
  const error = expectErrorEnvelope(response!.body, 'TTS_ERR_UNAVAILABLE');
  expect(error.details).to.deep.equal([{ reason: 'database_timeout' }]);
  expect(response!.body.message).to.match(/^The account database is unavailable: it did not answer within 300 ms/);
  expect(JSON.stringify(response!.body)).to.not.match(/SELECT|INSERT|UPDATE|canceling|statement|\.js:\d+|at [A-Za-z]+ \(/);
}

describe('e2e: the gateway on PostgreSQL with a statement time limit', function () {
  this.timeout(60_000);
  let folder: string;
  let url: string;
  let gateway: Gateway;
  let apiKey: string;
  const logged: Record<string, unknown>[] = [];

  before(async () => {
    folder = mkdtempSync(join(tmpdir(), 'tts-gateway-db-limit-'));
    url = await (await sharedPostgres()).createDatabase('statement_limit');
    const logger = recordingWinstonLogger(logged, 'debug');
    const configPath = join(folder, 'gateway.json');
    writeFileSync(configPath, JSON.stringify({ database: { url, statementTimeout: LIMIT }, storage: { path: join(folder, 'audio') } }));
    gateway = await composeGateway(await loadConfig({ argv: ['--config', configPath], env: {}, cwd: folder }), { logger });
    const registered = await request(gateway.app).post('/api/v1/auth/register').send({ email: 'locked@example.com', password: PASSWORD }).expect(200);
    apiKey = registered.body.data.apiKey as string;
  });

  after(async () => {
    await gateway?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  const accountRowLock = () => holdPostgresLocks(url, ["SELECT id FROM accounts WHERE email = 'locked@example.com' FOR UPDATE"]);
  const login = () => request(gateway.app).post('/api/v1/auth/login').send({ email: 'locked@example.com', password: PASSWORD });

  it("login, whose new key waits for the account's row lock held by another session, answers 503 at the limit; once the lock is gone it logs in", async () => {
    const lock = await accountRowLock();
    try {
      expectDatabaseUnavailable(await answerWithin(login()));
    } finally {
      await lock.release();
    }
    expect((await login()).status).to.equal(200);
  });

  it('key creation behind the same lock answers 503 at the limit, and the gateway goes on serving that key', async () => {
    const lock = await accountRowLock();
    try {
      expectDatabaseUnavailable(await answerWithin(request(gateway.app).post('/api/v1/auth/keys').set('X-API-Key', apiKey).send({ name: 'ci' })));
    } finally {
      await lock.release();
    }
    expect((await request(gateway.app).post('/api/v1/auth/keys').set('X-API-Key', apiKey).send({ name: 'ci' })).status).to.equal(200);
    expect((await request(gateway.app).get('/api/v1/auth/keys').set('X-API-Key', apiKey)).status).to.equal(200);
  });

  it("an unknown key's lookup behind a table lock answers 503 (not 401, not a hang); the key is refused with 401 once the lock is gone", async () => {
    const unknownKey = `ttsg_${'x'.repeat(43)}`;
    const keyed = () => request(gateway.app).get('/api/v1/auth/keys').set('X-API-Key', unknownKey);
    const before = await keyed();
    // The key has the shape of one, so the gateway asks the database about it.
    expect(before.status).to.equal(401);
    const lock = await holdPostgresLocks(url, ['LOCK TABLE api_keys IN ACCESS EXCLUSIVE MODE']);
    try {
      expectDatabaseUnavailable(await answerWithin(keyed()));
    } finally {
      await lock.release();
    }
    expect((await keyed()).status).to.equal(401);
  });

  it('the usage report behind a lock on the daily usage answers 503 at the limit, and reports once the lock is gone', async () => {
    const lock = await holdPostgresLocks(url, ['LOCK TABLE usage_daily IN ACCESS EXCLUSIVE MODE']);
    try {
      expectDatabaseUnavailable(await answerWithin(request(gateway.app).get('/api/v1/usage').set('X-API-Key', apiKey)));
    } finally {
      await lock.release();
    }
    expect((await request(gateway.app).get('/api/v1/usage').set('X-API-Key', apiKey)).status).to.equal(200);
  });

  it('logs each timed-out request as a warning with its code, and no SQL or stack anywhere in the log', () => {
    const failed = logged.filter((line) => line.message === 'request failed' && line.code === 'TTS_ERR_UNAVAILABLE');
    expect(failed.length).to.be.at.least(4);
    expect(failed.every((line) => line.level === 'warn')).to.equal(true);
    expect(logged.filter((line) => line.message === 'unexpected error')).to.deep.equal([]);
    expect(JSON.stringify(logged)).to.not.match(/SELECT|INSERT INTO|UPDATE api_keys|\.js:\d+:\d+|\n\s+at /);
  });
});
