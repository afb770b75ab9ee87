import { expect } from 'chai';
import { PostgresAccountStore, type GatewayError } from '../../../core';
import { eventually } from '../../support/eventually';
import { sharedPostgres } from '../../support/servers/shared-servers';
import { StallableTcpProxy } from '../../support/servers/stallable-tcp-proxy';
import { accountRecord, keyRecord } from './account-store-contract';

/**
 * A connection that breaks while a statement is on it (the network cut, a proxy or the server's
 * host gone, no word from PostgreSQL): pg fails the statement and also emits 'error' on the
 * client, which the pool does not listen to while the connection is lent out. Unheard, that
 * event ended the whole gateway process; the call must fail with 503 instead.
 */
describe('core/accounts PostgreSQL: a connection that breaks during a call', function () {
  this.timeout(20_000);
  let proxy: StallableTcpProxy | undefined;
  let store: PostgresAccountStore | undefined;
  afterEach(async () => {
    await proxy?.close();
    await store?.close();
  });

  const calls: Record<string, (opened: PostgresAccountStore) => Promise<unknown>> = {
    'a single statement (a key lookup)': (opened) => opened.findApiKeyByHash('0'.repeat(64)),
    'a transaction (a registration)': (opened) => opened.createAccountWithKey(accountRecord('broken@example.com'), keyRecord(accountRecord('broken@example.com').id)),
    "a transaction (the batch writer's)": (opened) => opened.recordActivity({ touches: new Map([['key-1', 5]]), usage: [], failures: [] }),
  };

  for (const [name, call] of Object.entries(calls)) {
    it(`${name} fails with 503 database_unreachable, the process goes on, and the next call works on a new connection`, async () => {
      const server = await sharedPostgres();
      const url = await server.createDatabase('broken');
      proxy = await StallableTcpProxy.start(server.port);
      const opened = new PostgresAccountStore(url.replace(`:${server.port}/`, `:${proxy.port}/`));
      store = opened;
      await opened.ready();
      await opened.ping();
      proxy.stall();
      const failure = call(opened).then(
        () => expect.fail('the call went through a broken connection'),
        (error: unknown) => error as GatewayError,
      );
      // The statement is on its way (held by the stalled proxy): now the connection breaks.
      await eventually(() => {
        expect(proxy!.heldChunks).to.be.greaterThan(0);
      });
      proxy.cutConnections();
      const error = await failure;
      expect(error).to.include({ code: 'TTS_ERR_UNAVAILABLE', status: 503 });
      expect(error.details).to.deep.equal([{ reason: 'database_unreachable' }]);
      expect(error.logContext).to.deep.equal({ databaseCode: 'connection_lost' });
      // The broken connection was not given back to the pool: the next call gets a sound one.
      expect(await opened.findApiKeyByHash('0'.repeat(64))).to.equal(undefined);
    });
  }
});
