import { expect } from 'chai';
import pg from 'pg';
import { AccountService, PostgresAccountStore } from '../../../core';
import { sharedPostgres } from '../../support/servers/shared-servers';

const FAST_SCRYPT = { cost: 1024, blockSize: 8, parallelization: 1 };

type Query = (this: pg.Client, ...args: unknown[]) => Promise<unknown>;

/**
 * Lets the next COMMIT through to the server, then reports the connection broken, as a network
 * that drops the answer (or a client that gives up waiting for it) does: the transaction is
 * committed, yet its sender hears a failure. Answers how to undo it.
 */
function loseTheNextCommitAnswer(): () => void {
  const prototype = pg.Client.prototype as unknown as { query: Query };
  const original = prototype.query;
  let armed = true;
  prototype.query = function (this: pg.Client, ...args: unknown[]) {
    // The store sends a statement as text or as a config object (with its time left).
    const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text?: unknown } | undefined)?.text;
    if (!armed || text !== 'COMMIT') return original.apply(this, args);
    armed = false;
    return original.apply(this, args).then(() => Promise.reject(new Error('Connection terminated unexpectedly')));
  };
  return () => {
    prototype.query = original;
  };
}

describe('core/accounts PostgreSQL: a batch whose COMMIT answer was lost', () => {
  let store: PostgresAccountStore | undefined;
  let restore: (() => void) | undefined;
  afterEach(async () => {
    restore?.();
    await store?.close();
  });

  it('is not counted twice when the writer sends it again', async () => {
    const url = await (await sharedPostgres()).createDatabase('lost_commit');
    store = new PostgresAccountStore(url, { max: 2 });
    await store.ready();
    const errors: unknown[] = [];
    const accounts = new AccountService(store, { registration: 'open', scrypt: FAST_SCRYPT, onActivityError: (error) => errors.push(error) });
    const { account, apiKey } = await accounts.register('once@example.com', 'correct horse battery');
    restore = loseTheNextCommitAnswer();
    await accounts.recordUsage(account.id, apiKey.id, { model: 'm', characters: 12, bytes: 100 });
    restore();
    expect(errors, 'the writer heard a failure').to.have.length(1);
    // The writer kept the batch and sends it again; the database already holds it.
    const report = await accounts.usageReport(account.id);
    expect(report.totals).to.include({ requests: 1, characters: 12 });
    expect(await store.listUsage(account.id)).to.have.length(1);
  });
});
