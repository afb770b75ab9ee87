import { expect } from 'chai';
import type Redis from 'ioredis';
import { keepConnectionChecked, HEARTBEAT_MS } from '../../../core/redis/redis-heartbeat';
import { ownRedis, sharedRedis } from '../../support/servers/shared-servers';
import { StallableTcpProxy } from '../../support/servers/stallable-tcp-proxy';
import { holdsWithin } from '../../support/eventually';
import { readyClient } from './redis-test-clients';

/** A heartbeat this short lets a test block the event loop past it without blocking for seconds. */
const SHORT_HEARTBEAT_MS = 100;

describe('core/redis connection heartbeat', function () {
  this.timeout(20_000);
  const clients: Redis[] = [];
  afterEach(() => {
    for (const client of clients.splice(0)) client.disconnect();
  });

  it('makes again a request-path connection whose network silently stopped passing packets', async () => {
    const proxy = await StallableTcpProxy.start((await sharedRedis()).port);
    try {
      const client = await readyClient(`redis://127.0.0.1:${proxy.port}`);
      clients.push(client);
      let closed = false;
      client.once('close', () => (closed = true));
      proxy.stall();
      // No close, no error from the socket: only the unanswered PING shows the connection is gone.
      expect(await holdsWithin(async () => closed, 3 * HEARTBEAT_MS)).to.equal(true);
      expect(client.status).to.not.equal('ready');
    } finally {
      await proxy.close();
    }
  });

  it('keeps a healthy connection whose PONG arrived while the event loop was blocked longer than the heartbeat', async () => {
    const redis = await ownRedis();
    const client = await readyClient(redis.url);
    const admin = await readyClient(redis.url);
    clients.push(client, admin);
    let closes = 0;
    client.on('close', () => (closes += 1));
    // Redis holds the first PING's answer a moment; meanwhile the whole process is blocked (a long
    // GC, a synchronous task) for longer than the heartbeat and the command timeout, and the PONG
    // waits in the socket when the loop runs its expired timers again.
    await admin.call('CLIENT', 'PAUSE', String(3 * SHORT_HEARTBEAT_MS), 'ALL');
    const ping = client.ping.bind(client);
    let blocked = false;
    client.ping = ((...args: Parameters<Redis['ping']>) => {
      const answer = ping(...args);
      if (!blocked) {
        blocked = true;
        setImmediate(() => {
          const until = Date.now() + 7 * SHORT_HEARTBEAT_MS;
          while (Date.now() < until);
        });
      }
      return answer;
    }) as Redis['ping'];
    keepConnectionChecked(client, SHORT_HEARTBEAT_MS);
    expect(await holdsWithin(async () => blocked, 2000)).to.equal(true);
    expect(await holdsWithin(async () => closes > 0, 10 * SHORT_HEARTBEAT_MS)).to.equal(false);
    expect(client.status).to.equal('ready');
  });
});
